"""The figures .ci/crashes prints at the end (see its docstring): per channel what arrived,
what never did and what arrived twice, the repeats per 1,000 accepted deliveries, and the window
from a receiver's answer to clarissa's commit of it, read from CLARISSA_DELIVERY_TRACE."""

import bisect
import math

from crashes_servers import say

# Where a kill landed, as the two servers saw the run: the phases of the kill-moment table.
PHASES = [
    "before asking the feed (start-up, config, state)",
    "while the feed was being answered",
    "feed read, no delivery yet (parsing, judging)",
    "while a webhook request was open (delivering)",
    "after a delivery, none open (between deliveries, committing)",
]


def show(ids):
    """The first 40 ids after a colon, or nothing."""
    if not ids:
        return ""
    return ": " + " ".join(ids[:40]) + (" ..." if len(ids) > 40 else "")


def repeat_gaps(repeated, first_copy, run_killed):
    """For each repeated listing, the ms from the moment the receiver began its first copy's
    answer to the kill of the run it answered. (Measured to the next kill after the answer
    written, as this harness did until 2026-11-24, a kill that landed while the receiver was
    writing paired the answer with the following run's kill, 44-130 ms later.)"""
    gaps = []
    for lid in repeated:
        arrived, answering = first_copy[lid]
        killed = run_killed(arrived)
        if killed is not None:
            gaps.append((killed - answering) * 1000)
    if not gaps:
        return ""
    gaps.sort()
    close = sum(1 for gap in gaps if gap <= 5)
    return (f"first copy answered {gaps[len(gaps) // 2]:.1f} ms before its run was killed"
            f" (median; {gaps[0]:.1f}-{gaps[-1]:.1f}), {close} of {len(gaps)} within 5 ms")


def percentile(values, share):
    """The nearest-rank percentile of sorted values."""
    return values[max(0, min(len(values), math.ceil(share * len(values))) - 1)]


def spread(values):
    values = sorted(values)
    return (f"p50 {percentile(values, 0.5):.2f}  p90 {percentile(values, 0.9):.2f}"
            f"  p99 {percentile(values, 0.99):.2f}  max {values[-1]:.2f} ms")


def read_trace(path):
    """The run's own timestamps (CLARISSA_DELIVERY_TRACE): {(event, detail): [seconds]}, on
    CLOCK_MONOTONIC, the clock of Python's time.monotonic on Linux."""
    events = {}
    try:
        with open(path, errors="replace") as trace:
            for line in trace:
                event, _, rest = line.rstrip("\n").partition(" ")
                nanoseconds, _, detail = rest.partition(" ")
                if nanoseconds.isdigit():
                    events.setdefault((event, detail), []).append(int(nanoseconds) / 1e9)
    except OSError:
        pass
    return events


def window_figures(received, trace, run_of):
    """The window in which a kill repeats a delivery: from the receiver's answer to clarissa's
    commit of its receipt, each acceptance matched with its commit in the same run."""
    events = read_trace(trace)

    def first(event, detail, after, before):
        times = [t for t in events.get((event, detail), []) if after - 0.001 <= t <= before]
        return min(times) if times else None

    begun, written, parts, cut = [], [], ([], [], []), []
    for channel, lid, header, _, accepted, arrived, answering in received:
        start, end, killed = run_of(arrived)
        committed = first("committed", f"{channel} {lid}", answering, end)
        if committed is None:
            if killed is not None:
                cut.append((killed - answering) * 1000)
            continue
        begun.append((committed - answering) * 1000)
        written.append((committed - accepted) * 1000)
        read = first("read", header or "", answering, end)
        resumed = first("resumed", header or "", answering, end)
        if read is not None and resumed is not None:
            for part, (a, b) in zip(parts, [(answering, read), (read, resumed),
                                            (resumed, committed)]):
                part.append((b - a) * 1000)
    if not begun:
        say("  window from the receiver's answer to clarissa's commit: no commit traced"
            " (a clarissa older than CLARISSA_DELIVERY_TRACE)")
        return
    say(f"  window from the receiver's answer to clarissa's commit, {len(begun)} acceptances"
        " (CLARISSA_DELIVERY_TRACE, one clock):")
    say(f"    from the answer begun    {spread(begun)}")
    say(f"    from the answer written  {spread(written)}")
    if parts[0]:
        say(f"    answer -> libcurl reads it            {spread(parts[0])}")
        say(f"    libcurl -> the channel's task resumes {spread(parts[1])}")
        say(f"    task -> receipt committed             {spread(parts[2])}")
    cut.sort()
    # A kill between the commit and its trace line counts here too, and repeats nothing.
    say(f"  acceptances not committed (by the trace) when their run was killed, each owed again"
        f"  {len(cut)}" + (f": the kill {cut[0]:.1f}-{cut[-1]:.1f} ms after the answer begun"
                           if cut else ""))


def channel_figures(channel, accepted, owed, strict, run_killed):
    """Per channel: what arrived, what never did, what arrived more than once; failures."""
    deliveries = [(lid, header or body) for name, lid, header, body, *_ in accepted
                  if name == channel]
    first_copy = {}
    for name, lid, _, _, _, arrived, answering in accepted:
        if name == channel:
            first_copy.setdefault(lid, (arrived, answering))
    keys = {}
    for lid, key in deliveries:
        keys.setdefault(lid, []).append(key)
    never = sorted(owed - keys.keys())
    repeated = sorted(lid for lid, seen in keys.items() if len(seen) > 1)
    droppable = [lid for lid in repeated if keys[lid][0] and len(set(keys[lid])) == 1]
    with_key = sum(1 for _, key in deliveries if key)
    strays = sorted(keys.keys() - owed)
    say(f"channel '{channel}':")
    say(f"  listings delivered                  {len(owed & keys.keys())}"
        f" of {len(owed)} owed, in {len(deliveries)} deliveries")
    say(f"  listings never delivered            {len(never)}{show(never)}")
    say(f"  listings delivered more than once   {len(repeated)}{show(repeated)}")
    repeats = len(deliveries) - len(keys)
    say(f"  repeated deliveries (beyond each listing's first)  {repeats}")
    if deliveries:
        say(f"  repeats per 1,000 accepted deliveries  {repeats * 1000 / len(deliveries):.1f}")
    if repeated:
        say(f"  repeats: {repeat_gaps(repeated, first_copy, run_killed)}")
    if with_key:
        say(f"  repeats with the same Idempotency-Key (a receiver drops them)"
            f"  {len(droppable)} of {len(repeated)}")
    else:
        say("  repeats with the same Idempotency-Key  0 (no Idempotency-Key sent)")
    say(f"  primed or unknown listings delivered (must be 0)  {len(strays)}{show(strays)}")
    failures = []
    if never:
        failures.append(f"{len(never)} listings never delivered on '{channel}'")
    # A repeat whose first copy went to a run that was not killed afterwards had all the time
    # to record it: its receipt was lost, which is a bug. (How long after the acceptance the
    # kill came says how fast a run records; on a loaded machine that stretches.)
    arrivals = {}
    for name, lid, _, _, _, arrived, _ in accepted:
        if name == channel:
            arrivals.setdefault(lid, arrived)
    lost = [lid for lid in repeated if run_killed(arrivals[lid]) is None]
    if lost:
        failures.append(
            f"{len(lost)} repeats on '{channel}' whose first copy went to a run that was not "
            f"killed (a receipt lost){show(lost)}")
    verdict = "met" if len(repeated) <= 2 else "NOT met"
    say(f"  the issue's bar, at most 2 delivered twice: {verdict} ({len(repeated)})")
    if strict and len(repeated) > 2:
        failures.append(f"{len(repeated)} listings delivered more than once on '{channel}' (bar: 2)")
    if strays:
        failures.append(f"{len(strays)} primed or unknown listings delivered on '{channel}'")
    return failures


def report(args, trial, feed, receiver, primed, length, finals, wall):
    owed = feed.served - primed
    unserved = feed.published - len(feed.served)
    say()
    say(f"figures (seed {args.seed}, {args.kills} kills asked; state: {trial.clarissa.world()})")
    say(f"  SIGKILLs landed                     {trial.kills}")
    say(f"  runs started / ran to completion    {trial.started} / {trial.completed}")
    buckets = "  ".join(f"{name}: {n}" for name, n in zip(
        ["0-25%", "25-50%", "50-75%", "75-100%", "past T"], trial.moments))
    say(f"  kill moments (delay / T, T = {length:.3f} s)  {buckets}")
    say("  kills by what the servers had seen of the run:")
    for phase, count in trial.phases.items():
        say(f"    {count:5d}  {phase}")
    say(f"  webhook answers lost to a kill (not accepted, owed again)  {receiver.refused_by_kill}")
    say(f"  state checks / failed               {trial.checks} / {len(trial.check_failures)}")
    say(f"  listings published                  {feed.published}: {len(primed)} primed silently"
        f" by the first run (not owed), {len(owed)} owed"
        + (f", {unserved} NEVER SERVED" if unserved else ""))
    failures = [f"{len(trial.check_failures)} state checks failed"] if trial.check_failures else []
    if trial.kills < args.kills:
        failures.append(f"only {trial.kills} of {args.kills} kills landed (runs ended first)")
    # An answer written after the run asking was killed (the kill landed while the receiver
    # waited, before the kernel had closed the dead run's socket) reached nobody: the run could
    # not read it, so it is no acceptance, and the next run owes the listing again as it should.
    received, unreadable = [], 0
    starts = [start for start, _ in trial.spans]

    def run_of(arrived):
        """(start, end, kill time or None) of the run that sent a request arriving then: the
        last run started before it (runs never overlap); a run not killed ends when the next
        starts."""
        run = bisect.bisect_right(starts, arrived) - 1
        if run < 0:
            return None, None, None
        start, killed = trial.spans[run]
        end = killed or (starts[run + 1] if run + 1 < len(starts) else math.inf)
        return start, end, killed

    def killed_at(arrived):
        """When the run that sent a request arriving then was killed (None: it finished)."""
        return run_of(arrived)[2]

    for entry in receiver.accepted:
        # The kill is compared with the moment the answer was begun, not sent: the receiver's
        # thread may wait for the interpreter while the harness kills, and a late clock would
        # blame the kill.
        arrived, answering = entry[5], entry[6]
        killed = killed_at(arrived)
        if killed is not None and killed < answering:
            unreadable += 1
        else:
            received.append(entry)
    say(f"  answers written after their run was killed (unreadable, not counted)  {unreadable}")
    for channel in trial.clarissa.channels:
        failures += channel_figures(channel, received, owed, args.strict, killed_at)
    window_figures(received, trial.clarissa.trace, run_of)
    say(f"  final runs' exit statuses           {' '.join(str(s) for s in finals)}")
    if any(status != 0 for status in finals):
        failures.append("a final run did not exit 0")
    if trial.bad_runs:
        say(f"  runs that ended by themselves with a failure  {len(trial.bad_runs)}")
    say(f"  wall time                           {wall:.0f} s")
    for failure in trial.check_failures[:5]:
        say(f"  state check failure: {failure}")
    say()
    if failures:
        say("FAIL (bar: 0 failed state checks, 0 never delivered, no receipt lost"
            + (", at most 2 delivered twice" if args.strict else "") + "): "
            + "; ".join(failures))
    else:
        say("PASS: 0 failed state checks, 0 listings never delivered, no receipt lost"
            + (", at most 2 delivered twice" if args.strict else ""))
    return 1 if failures else 0
