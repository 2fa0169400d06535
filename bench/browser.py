"""The dashboard as a user feels it: latency in Chromium from an interaction until the app stops running.

Starts `streamlit run dashboard/app.py` on a loopback port, drives Debian's Chromium through Playwright
and, per graph (nvidia-jetson and the generated 2,000-service graph), prints the first-open time of the
Contexts page, the median and maximum of 10 budget changes (a slider step of one token), 10 budgets typed
7% apart (each moves the cut by whole records) and 10 format changes, and, measured in the same run, the latency of a page reload, so the figures can be read as ratios on a noisy machine.

A latency is taken in the page, on the page's clock: from the input event that sent the app its rerun request
(the key press or the click, as the browser stamped it; typing a format's name before the Enter is the user's
time, not the app's) until the app's script state, recorded by a MutationObserver, last turns back to notRunning.

    python bench/browser.py [--repeats 10] [--graphs nvidia-jetson,services-2000]
    python bench/browser.py --repeats 3 --graphs scale-free-200000   # the server's peak memory on the largest
    python bench/browser.py --repeats 3 --graphs scale-free-200000 --overview-first   # + the first screen's time

After each graph it prints the server's resident memory and its peak so far (/proc VmRSS and VmHWM).

Those are the `interactions` row. The other rows are issue 47's table of what a user waits for, each printed with its
goal, "meets" or "OVER", the machine's load average and, where the server works for it, the server's CPU seconds
meanwhile (/proc/<pid>/stat utime + stime, its worker processes' included): `help` (graph-context-lab --help, best of
five), `cold` (a fresh server's first open of /), `session` (a second browser context opening /), `first-visit`
(every page of the navigation once, from the click until its first verdict and until idle, on the reference sample
and on nvidia-jetson), `switch` (a second round of switches over those pages: median and maximum), `sample` (picks in
the sidebar's Sample graph box), `services` (the 2,000-service graph's Overview table drawn, and idle) and
`scale-free` (the 200,000-edge graph's Overview drawn, then Contexts usable). They run on one fresh server, in that
order, each new session in a browser context of its own; `interactions` gets a fresh server of its own.

    python bench/browser.py --repeats 3                      # every row, quick (3 sample switches and interactions)
    python bench/browser.py --rows cold,session,switch       # some rows
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import TimeoutError as PlaywrightTimeout

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]
GRAPHS = {
    "nvidia-jetson": "sample=nvidia-jetson",
    "services-2000": "source=generator&generator=services&services_services=2000&services_noise_edges=4000",
    # the largest graph the limits accept (core.io.generate.PARAMETER_LIMITS: 200,000 edges, about 40,000 nodes)
    "scale-free-200000": "source=generator&generator=scale_free&scale_free_edges=200000",
}
DEFAULT_GRAPHS = "nvidia-jetson,services-2000"
OBSERVER = """() => {
  const app = document.querySelector('[data-testid=stApp]');
  window.__states = [];
  // Each record's old value too: a run quicker than a frame flips running -> notRunning before the callback reads it.
  new MutationObserver(records => {
    const now = performance.now();
    records.forEach(record => window.__states.push([record.oldValue, now]));
    window.__states.push([app.getAttribute('data-test-script-state'), now]);
  }).observe(app, {attributes: true, attributeOldValue: true, attributeFilter: ['data-test-script-state']});
}"""
DONE = """start => {
  const after = window.__states.filter(([, at]) => at >= start);
  const ran = after.findIndex(([state]) => state === 'running');
  const last = after.length ? after[after.length - 1] : null;
  if (ran < 0 || last[0] !== 'notRunning') return null;
  // The input that caused the run: the last key press or click before the first message the page sent after start.
  const sent = (window.__frames ?? []).find(([way, at]) => way === 'out' && at >= start);
  const inputs = (window.__inputs ?? []).filter(at => at >= start && (!sent || at <= sent[1]));
  return last[1] - (inputs.length ? inputs[inputs.length - 1] : start);
}"""
STARTED = "start => window.__states.some(([state, at]) => at >= start && state === 'running')"
QUIET_MS = 600  # no new run within this long after notRunning: the interaction has settled
JUMP_FACTOR = 0.93  # each typed budget 7% below the last: whole records leave the cut every time
TIMEOUT_S = 60  # an interaction that starts no run is reported, not waited for forever
# Installed before the app's scripts (add_init_script): the time of every key press and click, every websocket frame
# the app sends and receives, with performance.now() and its size, every long task of the page's main thread, and the
# last change of the main area's DOM, all on the page's clock, so a latency starts at the input that sent the rerun
# request, and a budget change splits into press -> rerun request sent -> first delta -> last message received ->
# the browser done drawing.
TRACER = """(() => {
  window.__inputs = [];
  for (const type of ['keydown', 'click']) {
    window.addEventListener(type, event => window.__inputs.push(event.timeStamp), {capture: true});
  }
  const Original = window.WebSocket;
  window.__frames = [];
  const size = data => data.byteLength ?? data.size ?? data.length ?? 0;
  class Traced extends Original {
    constructor(...parameters) {
      super(...parameters);
      this.addEventListener('message', event => window.__frames.push(['in', performance.now(), size(event.data)]));
    }
    send(data) { window.__frames.push(['out', performance.now(), size(data)]); return super.send(data); }
  }
  window.WebSocket = Traced;
  window.__long = [];
  new PerformanceObserver(list => list.getEntries().forEach(entry => window.__long.push([entry.startTime, entry.duration])))
    .observe({type: 'longtask', buffered: true});
  window.__mutated = 0;
  document.addEventListener('DOMContentLoaded', () => new MutationObserver(() => { window.__mutated = performance.now(); })
    .observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true}));
})();"""
PHASES = """start => {
  const frames = window.__frames.filter(([, at]) => at >= start);
  const sent = frames.find(([way]) => way === 'out');
  const inputs = window.__inputs.filter(at => at >= start && sent && at <= sent[1]);
  if (inputs.length) start = inputs[inputs.length - 1];
  const received = frames.filter(([way, at]) => way === 'in' && sent && at >= sent[1]);
  const idle = window.__states.filter(([state, at]) => at >= start && state === 'notRunning').pop();
  if (!sent || !received.length || !idle) return null;
  const last = received[received.length - 1][1];
  const busy = window.__long.filter(([at]) => at >= start).reduce((sum, [, length]) => sum + length, 0);
  return {press_to_send: sent[1] - start, send_to_first_delta: received[0][1] - sent[1],
          first_to_last_message: last - received[0][1], last_message_to_idle: idle[1] - last,
          last_dom_change: window.__mutated - start, total: idle[1] - start,
          messages: received.length, bytes: received.reduce((sum, [, , length]) => sum + length, 0),
          long_tasks_ms: busy};
}"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_app(port: int) -> subprocess.Popen:
    process = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "dashboard/app.py", "--server.headless", "true",
         "--server.address", "127.0.0.1", "--server.port", str(port), "--browser.gatherUsageStats", "false",
         "--server.fileWatcherType", "none"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as answer:
                if answer.read().decode().strip() == "ok":
                    return process
        except OSError:
            time.sleep(0.3)
    process.terminate()
    raise TimeoutError("the app did not answer /_stcore/health within 120 s")


class NoRun(TimeoutError):
    """The interaction started no run within TIMEOUT_S (a click or key press the control missed)."""


def timed(page, action, timeout: float = TIMEOUT_S) -> float:
    """Seconds from the input `action()` makes that sends the rerun request (its key press or click) until the run
    it started has ended and no other followed. A run must start within TIMEOUT_S (else NoRun) and end within
    `timeout` of the interaction."""
    page.evaluate(OBSERVER) if page.evaluate("() => window.__states === undefined") else None
    start = page.evaluate("() => performance.now()")
    action()
    begun = time.monotonic()
    while True:
        if time.monotonic() > begun + TIMEOUT_S and not page.evaluate(STARTED, start):
            raise NoRun(f"no run started within {TIMEOUT_S} s of the interaction")
        if time.monotonic() > begun + timeout:
            raise TimeoutError(f"no run started and ended within {timeout:.0f} s of the interaction")
        elapsed = page.evaluate(DONE, start)
        if elapsed is not None:
            page.wait_for_timeout(QUIET_MS)
            again = page.evaluate(DONE, start)
            if again is not None and abs(again - elapsed) < 1:
                return elapsed / 1000
        page.wait_for_timeout(20)


def wait_idle(page, timeout: float = 1_800_000) -> None:
    page.wait_for_function("() => document.querySelector('[data-testid=stApp]')"
                           "?.getAttribute('data-test-script-state') === 'notRunning'", timeout=timeout)


def first_open(page, url: str) -> float:
    """Seconds from navigation until the Contexts page shows its panels and the app is idle."""
    begun = time.perf_counter()
    page.goto(url, wait_until="domcontentloaded")
    page.locator('[data-testid="stSidebarNav"] a', has_text="Contexts").first.click(timeout=1_800_000)
    page.locator("h1", has_text="Contexts").first.wait_for(timeout=1_800_000)
    page.locator('[data-testid="stMetricValue"]').first.wait_for(timeout=1_800_000)
    wait_idle(page)
    return time.perf_counter() - begun


def overview_open(page, url: str) -> tuple[float, float]:
    """Seconds from navigation until the Overview has drawn (its table, or on a large graph its own figures), and
    until the app is idle (the budgets' exact counts, which a large graph's Overview draws before, are in)."""
    begun = time.perf_counter()
    page.goto(url, wait_until="domcontentloaded")
    page.locator("h1", has_text="Overview").first.wait_for(timeout=1_800_000)
    page.locator('[data-testid="stMetricValue"], [data-testid="stDataFrame"]').first.wait_for(timeout=1_800_000)
    drawn = time.perf_counter() - begun
    wait_idle(page)
    return drawn, time.perf_counter() - begun


def contexts_after_overview(page) -> float:
    """Seconds from clicking Contexts on a drawn Overview until its panels show and the app is idle."""
    begun = time.perf_counter()
    page.locator('[data-testid="stSidebarNav"] a', has_text="Contexts").first.click(timeout=1_800_000)
    page.locator("h1", has_text="Contexts").first.wait_for(timeout=1_800_000)
    page.locator('[data-testid="stMetricValue"]').first.wait_for(timeout=1_800_000)
    wait_idle(page)
    return time.perf_counter() - begun


def timed_with_phases(page, action, phases: list[dict] | None) -> float:
    """`timed(page, action)`; with `phases`, the interaction's breakdown (websocket frames) appended to it."""
    start = page.evaluate("() => performance.now()")
    seconds = timed(page, action)
    if phases is not None:
        phases.append(page.evaluate(PHASES, start))
    return seconds


def budget_changes(page, repeats: int, phases: list[dict] | None = None) -> list[float]:
    """Seconds per budget change (one arrow key on the page's slider); with `phases`, each change's breakdown.
    The steps go down when the budget sits too near the slider's top to go up: a step past it would start no run."""
    slider = page.locator('[data-testid="stMain"] [data-testid="stSlider"] input[type=range]').first
    slider.focus()
    value, top = slider.evaluate("element => [Number(element.value), Number(element.max)]")
    key = "ArrowRight" if value + repeats <= top else "ArrowLeft"
    return counted_runs([lambda: slider.press(key)] * repeats, page, phases, "budget step(s)")


def counted_runs(actions, page, phases: list[dict] | None, what: str) -> list[float]:
    """`timed_with_phases` of each action; one that starts no run within TIMEOUT_S (a key press the control missed:
    now and then after the first open, the slider's) is left out and counted, as format changes are."""
    figures, missed = [], 0
    for action in actions:
        try:
            figures.append(timed_with_phases(page, action, phases))
        except TimeoutError:
            missed += 1
            wait_idle(page)
    if missed:
        print(f"  ({missed} {what} started no run within {TIMEOUT_S} s and are left out)")
    return figures


def budget_jumps(page, repeats: int, phases: list[dict] | None = None, factor: float = JUMP_FACTOR) -> list[float]:
    """Seconds per budget typed into the page's Exact budget box, each `factor` times the last: a step that moves
    the cut by whole records, where one slider step under the record policy usually keeps the same ones."""
    field = page.locator('[data-testid="stMain"] [data-testid="stNumberInput"]').filter(
        has_text="Exact budget").locator("input").first
    slider = page.locator('[data-testid="stMain"] [data-testid="stSlider"] input[type=range]').first

    def typed(budget: int) -> None:
        field.fill(str(budget))
        field.press("Enter")

    def settled() -> int:
        """The box's budget once it shows the slider's: right after slider steps, the box can still be taking the
        last step's value, which then overwrites the typed one, and Enter commits nothing (no run starts)."""
        deadline = time.monotonic() + 10
        while True:
            shown = int(field.input_value().replace(",", ""))
            if shown == int(slider.evaluate("element => Number(element.value)")) or time.monotonic() > deadline:
                return shown
            time.sleep(0.05)
    def next_budget():  # the budget is read before the clock starts
        budget = max(int(settled() * factor), 1)
        return lambda: typed(budget)
    return counted_runs((next_budget() for _ in range(repeats)), page, phases, "typed budget(s)")


def describe_phases(phases: list[dict]) -> list[str]:
    """Median of each phase of the budget changes, in ms (bytes and messages as counts)."""
    known = [phase for phase in phases if phase]
    if not known:
        return ["  phases: no websocket frames seen"]
    lines = []
    for name in known[0]:
        median = statistics.median(phase[name] for phase in known)
        unit = "" if name in ("messages", "bytes") else " ms"
        lines.append(f"    {name:<22} median {median:>10,.0f}{unit}  max {max(phase[name] for phase in known):>10,.0f}{unit}")
    return [f"  budget change broken down (median of {len(known)}; the page's own clock):", *lines]


def format_changes(page, repeats: int, name: str = "csv") -> list[float]:
    """Alternately add `name` to the chosen formats and remove it again (by what the box shows: the Contexts page
    draws it above its panels). An interaction that starts no run within TIMEOUT_S (a keystroke the box missed)
    is left out and counted."""
    box = page.locator('[data-testid="stMain"] [data-testid="stMultiSelect"]').filter(has_text="Formats (up to 4)").first
    figures, missed = [], 0
    for _ in range(repeats):
        remove = box.get_by_role("button", name=f"Remove {name}").first
        if remove.count():
            action = remove.click
        else:
            def action() -> None:
                box.locator("input").first.click()
                page.keyboard.type(name)
                page.keyboard.press("Enter")
                page.keyboard.press("Escape")
        try:
            figures.append(timed(page, action))
        except TimeoutError:
            missed += 1
            wait_idle(page)
    if missed:
        print(f"  ({missed} format change(s) started no run within {TIMEOUT_S} s and are left out)")
    return figures


def memory_mb(pid: int) -> tuple[float, float]:
    """The server's resident memory now and its peak so far (VmRSS and VmHWM from /proc), in MB."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return tuple(int(fields[name].split()[0]) / 1024 for name in ("VmRSS", "VmHWM"))


def reload_latency(page) -> float:
    begun = time.perf_counter()
    page.reload(wait_until="domcontentloaded")
    page.locator('[data-testid="stMetricValue"]').first.wait_for(timeout=600_000)
    wait_idle(page)
    return time.perf_counter() - begun


def describe(label: str, values: list[float], reference: float) -> str:
    median = statistics.median(values)
    return (f"  {label:<16} median {median * 1000:>8.0f} ms  max {max(values) * 1000:>8.0f} ms  "
            f"({median / reference:.2f} x reload)")


# The rows of issue 47's table of waits, in the order they run (--rows chooses; "interactions" is the Contexts
# measurements above, on a server of their own).
ROWS = {
    "help": "graph-context-lab --help, best of five (wall, a subprocess)",
    "cold": "cold first open of / (a fresh server; until the app is idle and stays so)",
    "session": "a new session on a warm server (a second browser context opening /)",
    "first-visit": "each page's first visit, on the reference sample and on nvidia-jetson",
    "switch": "page switch in a warm session, every page of the sidebar navigation (second round)",
    "sample": "sample switch in the sidebar (Sample graph)",
    "services": "generated services graph, 2,000 services + 4,000 noise edges: the Overview's table, and idle",
    "scale-free": "scale-free, 200,000 edges: the Overview drawn, then Contexts usable",
    "interactions": "Contexts per graph (--graphs): budget changes, typed budgets, format changes, reload",
}
WARM_ROWS = ("cold", "session", "first-visit", "switch", "sample", "services", "scale-free")  # one server, in turn
HELP_GOAL, COLD_GOAL, SESSION_GOAL, VISIT_GOAL, SAMPLE_GOAL, LARGE_GOAL = 0.3, 3.0, 1.0, 3.0, 1.0, 5.0
SWITCH_GOALS = (0.3, 0.6)  # median, max
REFERENCE_SAMPLE = "reference-services"  # the default sample (core.io.samples.default_sample)
MAIN = '[data-testid="stMain"] '
# Each page's first verdict: the first element of its own result drawn (by its title's h1, never a stale element
# of the page before). The Advisor's is its headline (the pick, or "nothing answers"); Exports' the view's URL, drawn
# once its sweeps are in; Model answers' the Run button under the plan's count; Audit's the prompt to upload.
VERDICTS = {
    "Overview": "stDataFrame, stMetricValue", "Contexts": "stMetricValue", "Graph": "iframe",
    "Walkthrough": "stDataFrame", "Advisor": "stAlert", "Token anatomy": "stDataFrame, stPlotlyChart",
    "Budget survival": "stPlotlyChart", "Orderings": "stPlotlyChart", "Pareto": "stPlotlyChart",
    "Question set": "stPlotlyChart, stAlert", "Exports": "stCode", "Model answers": "stButton, stAlert",
    "Audit a context": "stAlert",
}
VISIT_TIMEOUT_S = 1_800  # a first visit may compute a page's sweeps: slow, but it is a figure, not a missed click
# Installed before the app's scripts, in the pages the rows open: every change of the app's script state from the
# document's start (so a navigation's figure is on the page's clock from navigation start), and the first time each
# watched element shows (`window.__arm(name, title, selector)`, or the map given here at the start).
LOAD_TRACER = """(initial => {
  window.__states = [];
  window.__seen = {};
  window.__watch = {...initial};
  const fresh = element => element.closest('[data-testid=stElementContainer]')?.getAttribute('data-stale') !== 'true';
  const titled = title => [...document.querySelectorAll('[data-testid=stMain] h1')]
    .some(heading => fresh(heading) && heading.textContent.includes(title));
  const check = now => {
    for (const [name, [title, selector]] of Object.entries(window.__watch)) {
      if (!(name in window.__seen) && titled(title) && [...document.querySelectorAll(selector)].some(fresh)) {
        window.__seen[name] = now;
      }
    }
  };
  window.__arm = (name, title, selector) => { delete window.__seen[name]; window.__watch[name] = [title, selector];
                                              check(performance.now()); };
  new MutationObserver(records => {
    const now = performance.now();
    for (const record of records) {
      if (record.attributeName === 'data-test-script-state') {
        window.__states.push([record.oldValue, now], [record.target.getAttribute('data-test-script-state'), now]);
      }
    }
    check(now);
  }).observe(document, {subtree: true, childList: true, attributes: true, attributeOldValue: true,
                        attributeFilter: ['data-test-script-state', 'data-stale']});
})(%s);"""
SETTLED = """() => {
  const states = window.__states ?? [];
  const last = states[states.length - 1];
  return states.some(([state]) => state === 'running') && last[0] === 'notRunning' ? last[1] : null;
}"""
INPUT_AT = """start => {
  const sent = (window.__frames ?? []).find(([way, at]) => way === 'out' && at >= start);
  const inputs = (window.__inputs ?? []).filter(at => at >= start && (!sent || at <= sent[1]));
  return inputs.length ? inputs[inputs.length - 1] : start;
}"""


def selector(title: str) -> str:
    """The CSS selector of `title`'s verdict, in the main area."""
    return ", ".join(f'{MAIN}[data-testid="{name}"]' if name.startswith("st") else MAIN + name
                     for name in VERDICTS[title].split(", "))


def load_text() -> str:
    return "load " + "/".join(f"{value:.1f}" for value in os.getloadavg())


def cpu_seconds(pid: int) -> float:
    """CPU seconds of the server and of its live descendants (the sweeps' worker processes), from /proc/<pid>/stat
    (utime + stime, and cutime + cstime for the children it has waited for)."""
    tick = os.sysconf("SC_CLK_TCK")
    stats, children = {}, {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:  # the process ended while we looked
                continue
            stats[int(entry.name)] = fields
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    total, waiting = 0.0, [pid]
    while waiting:
        process = waiting.pop()
        fields = stats.get(process)
        if fields:  # stat's fields 14-17 (the 12th to 15th after the name): utime, stime, cutime, cstime
            counted = fields[11:15] if process == pid else fields[11:13]  # a child's waited-for ones are its parent's
            total += sum(int(value) for value in counted) / tick
        waiting.extend(children.get(process, []))
    return total


def report(label: str, figure: str, meets: bool, goal: str, cpu: float | None = None, whose: str = "server") -> None:
    """One row: the figure, its goal, whether it meets it, the load now and the server's CPU while it was measured."""
    spent = f"  {whose} CPU {cpu:6.2f} s" if cpu is not None else ""
    print(f"  {label:<50} {figure:>26}  goal {goal:<16} {'meets' if meets else 'OVER ':<5}  {load_text()}{spent}",
          flush=True)


def help_row() -> None:
    """`graph-context-lab --help`, best of five: the wall time of a subprocess, and that run's CPU."""
    import resource

    command = Path(sys.executable).with_name("graph-context-lab")
    best, best_cpu = float("inf"), 0.0
    for _ in range(5):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        begun = time.perf_counter()
        subprocess.run([str(command), "--help"], stdout=subprocess.DEVNULL, check=True)
        wall = time.perf_counter() - begun
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if wall < best:
            best, best_cpu = wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    report("graph-context-lab --help, best of 5", f"{best * 1000:.0f} ms", best <= HELP_GOAL,
           f"≤ {HELP_GOAL * 1000:.0f} ms", best_cpu, "its")


def settled(page, timeout: float = VISIT_TIMEOUT_S) -> float:
    """The page-clock time (ms) of the app's last turn to notRunning, once no run followed within QUIET_MS."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        at = page.evaluate(SETTLED)
        if at is not None:
            page.wait_for_timeout(QUIET_MS)
            if page.evaluate(SETTLED) == at:
                return at
        page.wait_for_timeout(20)
    raise TimeoutError(f"the app did not settle within {timeout:.0f} s")


def new_session(browser, watch: dict[str, tuple[str, str]]):
    """A page in a browser context of its own (a new Streamlit session), traced from its document's start."""
    import json

    context = browser.new_context(viewport={"width": 1440, "height": 900}, service_workers="block")
    context.add_init_script(TRACER)
    context.add_init_script(LOAD_TRACER % json.dumps({name: list(item) for name, item in watch.items()}))
    return context.new_page()


def opened(page, url: str, pid: int) -> tuple[dict[str, float], float, float]:
    """Navigate to `url`: each watched element's first time and the app's settling, in seconds on the page's clock
    from navigation start, and the server's CPU seconds meanwhile."""
    cpu = cpu_seconds(pid)
    page.goto(url, wait_until="commit")
    idle = settled(page) / 1000
    return {name: at / 1000 for name, at in page.evaluate("() => window.__seen").items()}, idle, cpu_seconds(pid) - cpu


def nav_link(page, title: str):
    return page.locator('[data-testid="stSidebarNav"] a').filter(has=page.locator(f'span[label="{title}"]')).first


def switched(page, action, timeout: float = VISIT_TIMEOUT_S) -> tuple[float | None, float]:
    """`timed(page, action, timeout)` and the page-clock start it counted from. When the action starts no run the
    observer sees (now and then on this loaded machine: a click the app missed, or a run whose state change never
    reached the page's attribute), the figure is None: the caller decides whether to click again."""
    start = page.evaluate("() => performance.now()")
    try:
        return timed(page, action, timeout), start
    except NoRun:
        wait_idle(page)
        return None, start


def verdict_after(page, start: float) -> float | None:
    """Seconds from the click after `start` until the armed verdict showed (waiting up to TIMEOUT_S for it: an element
    whose component loads lazily can draw after the app is idle), or None when it never did."""
    try:
        page.wait_for_function("() => window.__seen.verdict !== undefined", timeout=TIMEOUT_S * 1000)
    except PlaywrightTimeout:
        return None
    return (page.evaluate("() => window.__seen.verdict") - page.evaluate(INPUT_AT, start)) / 1000


def visit(page, title: str, pid: int) -> tuple[float | None, float | None, float]:
    """Click `title` in the navigation: seconds from the click until its verdict shows and until the app is idle
    (None: not seen), on the page's clock, and the server's CPU seconds meanwhile. A click that started no run the
    observer saw is clicked again only when the page did not change (its verdict not shown)."""
    page.evaluate("([title, selector]) => window.__arm('verdict', title, selector)", [title, selector(title)])
    cpu = cpu_seconds(pid)
    idle, start = switched(page, nav_link(page, title).click)
    if idle is None and page.evaluate("() => window.__seen.verdict === undefined"):
        print(f"    ({title}: the click started no run within {TIMEOUT_S} s: clicked again)")
        idle, start = switched(page, nav_link(page, title).click)
    elif idle is None:
        print(f"    ({title}: the page changed, but no run was seen: idle unknown)")
    verdict = verdict_after(page, start)
    return verdict, idle, cpu_seconds(pid) - cpu


def report_visit(title: str, sample: str, verdict: float | None, idle: float | None, cpu: float) -> None:
    """A first visit meets its goal when its verdict shows within it (without one, when the app is idle within it)."""
    shown = "no verdict" if verdict is None else f"verdict {verdict:.1f} s"
    figure = verdict if verdict is not None else idle
    report(f"first visit: {title} ({sample})", shown + ("" if idle is None else f", idle {idle:.1f} s"),
           figure is not None and figure <= VISIT_GOAL, f"≤ {VISIT_GOAL:.0f} s", cpu)


def first_visits(page, sample: str, overview: tuple[float | None, float, float], pid: int, shown: bool) -> None:
    """Every page of the navigation once, in its order, from the Overview `page` shows (whose own first visit,
    the opening, is `overview`), back to the Overview at the end."""
    titles = list(VERDICTS)
    if shown:
        report_visit(titles[0], sample, *overview)
    for title in titles[1:]:
        figures = visit(page, title, pid)
        if shown:
            report_visit(title, sample, *figures)
    switched(page, nav_link(page, titles[0]).click)  # back to the Overview, where the sessions start


def page_switches(page, pid: int) -> None:
    """A second round over every page (the first visits made the first): the switch to each page from the one before,
    Contexts first and back to the Overview last."""
    links = page.locator('[data-testid="stSidebarNav"] a').count()
    if links != len(VERDICTS):
        print(f"  (the navigation shows {links} links, the benchmark knows {len(VERDICTS)} pages)")
    titles = list(VERDICTS)
    cpu = cpu_seconds(pid)
    switches, unseen = {}, 0
    for title in titles[1:] + titles[:1]:
        verdict, idle, _ = visit(page, title, pid)
        unseen += idle is None
        if idle is not None or verdict is not None:
            switches[title] = idle if idle is not None else verdict
    spent = (cpu_seconds(pid) - cpu) / len(switches)
    if unseen:
        print(f"    ({unseen} switch(es) whose run was not seen are timed to their page's verdict)")
    median, longest = statistics.median(switches.values()), max(switches.values())
    slowest = max(switches, key=switches.get)
    report(f"page switch, {len(switches)} pages (max: {slowest})",
           f"{median * 1000:.0f} / {longest * 1000:.0f} ms", median <= SWITCH_GOALS[0] and longest <= SWITCH_GOALS[1],
           f"≤ {SWITCH_GOALS[0] * 1000:.0f} / {SWITCH_GOALS[1] * 1000:.0f} ms", spent)
    print("    (median / max; server CPU per switch; each: "
          + ", ".join(f"{title} {seconds * 1000:.0f}" for title, seconds in switches.items())
          + " ms)")


def sample_switches(page, repeats: int, current: str, pid: int) -> None:
    """`repeats` picks in the sidebar's Sample graph box on the Overview, each to the next sample after `current`."""
    from core.io.samples import sample_names

    names = sample_names()
    order = names[names.index(current) + 1:] + names[:names.index(current) + 1]
    box = page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]').filter(has_text="Sample graph").first
    figures, cpu = [], cpu_seconds(pid)
    for index in range(repeats):
        name = order[index % len(order)]

        def pick(name=name) -> None:
            box.click()
            page.get_by_role("option", name=name, exact=True).click()  # the click that sends the rerun request

        seconds, _ = switched(page, pick)
        if seconds is None and box.locator("input").first.input_value() != name:
            print(f"    (the pick of {name} started no run within {TIMEOUT_S} s: picked again)")
            seconds, _ = switched(page, pick)
        if seconds is None:
            print(f"    (the switch to {name}: no run seen, left out)")
            continue
        figures.append((name, seconds))
    if not figures:
        print("  sample switch: no switch's run was seen")
        return
    spent = (cpu_seconds(pid) - cpu) / len(figures)
    longest = max(seconds for _, seconds in figures)
    report(f"sample switch, {repeats} (median / max)",
           f"{statistics.median(seconds for _, seconds in figures) * 1000:.0f} / {longest * 1000:.0f} ms",
           longest <= SAMPLE_GOAL, f"≤ {SAMPLE_GOAL * 1000:.0f} ms (max)", spent)
    print("    (server CPU per switch; each: " + ", ".join(f"{name} {seconds * 1000:.0f}" for name, seconds in figures)
          + " ms)")


def warm_rows(browser, base: str, pid: int, rows: set[str], repeats: int) -> None:
    """The rows on one server, in turn: its first open, a second session, that session's first visit to each page and
    a second round of switches, nvidia-jetson's first visits, sample switches, then the two generated graphs, each in
    a session of its own. A row not chosen still runs when a later one needs its state (a switch needs a visit)."""
    overview = {"verdict": ("Overview", selector("Overview"))}
    cold = new_session(browser, overview)
    seen, idle, cpu = opened(cold, base + "/", pid)
    if "cold" in rows:
        report("cold first open of / (idle)", f"{idle:.1f} s", idle <= COLD_GOAL, f"≤ {COLD_GOAL:.0f} s", cpu)
    reference_overview = (seen.get("verdict"), idle, cpu)
    cold.context.close()
    wanted = rows & {"session", "first-visit", "switch", "sample"}
    if wanted:
        page = new_session(browser, overview)
        _, idle, cpu = opened(page, base + "/", pid)
        if "session" in rows:
            report("new session on a warm server (idle)", f"{idle:.2f} s", idle <= SESSION_GOAL,
                   f"≤ {SESSION_GOAL:.0f} s", cpu)
        if wanted & {"first-visit", "switch"}:
            first_visits(page, REFERENCE_SAMPLE, reference_overview, pid, "first-visit" in rows)
        if "switch" in rows:
            page_switches(page, pid)
        if "first-visit" in rows:
            jetson = new_session(browser, overview)
            seen, idle, cpu = opened(jetson, base + "/?" + GRAPHS["nvidia-jetson"], pid)
            first_visits(jetson, "nvidia-jetson", (seen.get("verdict"), idle, cpu), pid, True)
            jetson.context.close()
        if "sample" in rows:
            sample_switches(page, repeats, REFERENCE_SAMPLE, pid)
        page.context.close()
    if "services" in rows:
        page = new_session(browser, {"table": ("Overview", MAIN + '[data-testid="stDataFrame"]')})
        seen, idle, cpu = opened(page, base + "/?" + GRAPHS["services-2000"], pid)
        drawn = seen.get("table")
        report("2,000 services: Overview's table drawn", "not seen" if drawn is None else f"{drawn:.1f} s",
               drawn is not None and drawn <= LARGE_GOAL, f"≤ {LARGE_GOAL:.0f} s")
        report("2,000 services: Overview idle", f"{idle:.1f} s", idle <= LARGE_GOAL, f"≤ {LARGE_GOAL:.0f} s", cpu)
        page.context.close()
    if "scale-free" in rows:
        page = new_session(browser, overview)
        seen, idle, cpu = opened(page, base + "/?" + GRAPHS["scale-free-200000"], pid)
        drawn = seen.get("verdict")
        report("scale-free 200,000: Overview drawn", "not seen" if drawn is None else f"{drawn:.1f} s",
               drawn is not None and drawn <= LARGE_GOAL, f"≤ {LARGE_GOAL:.0f} s")
        print(f"    (the Overview idle after {idle:.1f} s, server CPU {cpu:.1f} s; then Contexts clicked)")
        verdict, usable, cpu = visit(page, "Contexts", pid)
        usable = usable if usable is not None else verdict  # a run the observer missed: until its panels showed
        report("scale-free 200,000: Contexts usable (idle)", "not seen" if usable is None else f"{usable:.1f} s",
               usable is not None and usable <= LARGE_GOAL, f"≤ {LARGE_GOAL:.0f} s", cpu)
        if verdict is not None:
            print(f"    (its first metric drawn {verdict:.1f} s after the click)")
        now, peak = memory_mb(pid)
        print(f"    (server memory {now:,.0f} MB resident now, {peak:,.0f} MB peak so far)")
        page.context.close()


def interactions(browser, port: int, process: subprocess.Popen, arguments: argparse.Namespace) -> None:
    """The Contexts measurements per graph: first open, budget changes, typed budgets, format changes, reload."""
    for name in arguments.graphs.split(","):
        page = browser.new_page(viewport={"width": 1440, "height": 900})
        page.add_init_script(TRACER)
        url = f"http://127.0.0.1:{port}/?{GRAPHS[name]}"
        if arguments.overview_first:
            drawn, idle = overview_open(page, url)
            opened = contexts_after_overview(page)
            print(f"{name}: the Overview drawn after {drawn:.1f} s, the budgets counted (app idle) after "
                  f"{idle:.1f} s, then Contexts {opened:.1f} s more")
        else:
            opened = first_open(page, url)
        phases: list[dict] | None = [] if arguments.breakdown else None
        budgets = budget_changes(page, arguments.repeats, phases)
        jump_phases: list[dict] | None = [] if arguments.breakdown else None
        jumps = budget_jumps(page, arguments.repeats, jump_phases)
        formats = [] if arguments.budget_only else format_changes(page, arguments.repeats)
        reload = statistics.median([reload_latency(page) for _ in range(3)])
        print(f"{name}: first open of Contexts {opened:.1f} s; page reload (warm, median of 3) "
              f"{reload * 1000:.0f} ms  ({load_text()})")
        print(describe("budget change", budgets, reload))
        if phases is not None:
            print("\n".join(describe_phases(phases)))
        print(describe("budget typed", jumps, reload) + f"  (each {1 - JUMP_FACTOR:.0%} below the last)")
        if jump_phases is not None:
            print("\n".join(describe_phases(jump_phases)).replace("budget change", "budget typed"))
        if formats:
            print(describe("format change", formats, reload))
        now, peak = memory_mb(process.pid)
        print(f"  server memory    {now:,.0f} MB resident now, {peak:,.0f} MB peak so far (VmRSS, VmHWM)")
        page.close()


def chosen_rows(arguments: argparse.Namespace) -> list[str]:
    """--rows as given; without it every row, or only the interactions when one of their own options is given (so
    the commands quoted in docs/performance.md measure what they did)."""
    if arguments.rows:
        rows = [name.strip() for name in arguments.rows.split(",") if name.strip()]
        unknown = [name for name in rows if name not in ROWS]
        if unknown:
            raise SystemExit(f"unknown row(s) {', '.join(unknown)}: choose from {', '.join(ROWS)}")
        return rows
    own = (arguments.graphs != DEFAULT_GRAPHS or arguments.breakdown or arguments.budget_only
           or arguments.overview_first)
    return ["interactions"] if own else list(ROWS)


def commit() -> str:
    answer = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    return answer.stdout.strip() or "unknown"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default="", help=f"comma-separated, of {', '.join(ROWS)} (default: all, or only "
                                                   "interactions when an option of theirs is given)")
    parser.add_argument("--repeats", type=int, default=10, help="interactions per kind, and sample switches")
    parser.add_argument("--graphs", default=DEFAULT_GRAPHS, help=f"of {', '.join(GRAPHS)} (interactions)")
    parser.add_argument("--breakdown", action="store_true",
                        help="also split each budget change into request, server and drawing (websocket frames)")
    parser.add_argument("--budget-only", action="store_true", help="skip the format changes (a quicker breakdown)")
    parser.add_argument("--overview-first", action="store_true",
                        help="wait for the Overview to draw before opening Contexts, and print both times "
                             "(a large graph's first screen; the default clicks Contexts at once)")
    arguments = parser.parse_args()
    rows = chosen_rows(arguments)
    from playwright.sync_api import sync_playwright

    print(f"commit {commit()}, {os.cpu_count()} cores, {load_text()} at the start; rows: {', '.join(rows)}", flush=True)
    if "help" in rows:
        help_row()
    cpu_start = time.process_time()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        for warm, wanted in ((True, set(rows) & set(WARM_ROWS)), (False, {"interactions"} & set(rows))):
            if not wanted:
                continue
            port = free_port()
            process = start_app(port)  # a fresh server each: the cold open is its first, memory peaks are its own
            try:
                if warm:
                    warm_rows(browser, f"http://127.0.0.1:{port}", process.pid, wanted, arguments.repeats)
                else:
                    interactions(browser, port, process, arguments)
            finally:
                process.terminate()
                process.wait(timeout=30)
        browser.close()
    print(f"(this process's CPU {time.process_time() - cpu_start:.1f} s; the app runs in its own process)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
