"""What the app keeps between reruns: caches bounded by the bytes they hold, and how those bytes are estimated."""
