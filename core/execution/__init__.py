"""Where independent tasks run: the local process pool, Ray, and a run's progress estimate; imports no stage."""
