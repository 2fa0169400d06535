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


def timed(page, action) -> float:
    """Seconds from the input `action()` makes that sends the rerun request (its key press or click) until the run
    it started has ended and no other followed."""
    page.evaluate(OBSERVER) if page.evaluate("() => window.__states === undefined") else None
    start = page.evaluate("() => performance.now()")
    action()
    deadline = time.monotonic() + TIMEOUT_S
    while True:
        if time.monotonic() > deadline:
            raise TimeoutError(f"no run started and ended within {TIMEOUT_S} s of the interaction")
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--graphs", default=DEFAULT_GRAPHS, help=f"of {', '.join(GRAPHS)}")
    parser.add_argument("--breakdown", action="store_true",
                        help="also split each budget change into request, server and drawing (websocket frames)")
    parser.add_argument("--budget-only", action="store_true", help="skip the format changes (a quicker breakdown)")
    parser.add_argument("--overview-first", action="store_true",
                        help="wait for the Overview to draw before opening Contexts, and print both times "
                             "(a large graph's first screen; the default clicks Contexts at once)")
    arguments = parser.parse_args()
    from playwright.sync_api import sync_playwright

    port = free_port()
    process = start_app(port)
    cpu_start = time.process_time()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
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
                      f"{reload * 1000:.0f} ms")
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
            browser.close()
    finally:
        process.terminate()
        process.wait(timeout=30)
    print(f"(this process's CPU {time.process_time() - cpu_start:.1f} s; the app runs in its own process)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
