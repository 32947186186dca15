#!/usr/bin/env python3
"""Runs the commands of the documentation and compares the output pasted under them.

Checked: README.md, examples/README.md and docs/*.md.
- A fenced ```sh block runs as one bash script (set -e) and must exit 0.
- A fenced ```text block whose first line starts with "$ " runs that command (with its "\\"
  continuation lines; stdout and stderr together) and its output must equal the lines pasted
  below it (standard output first, then standard error); a line "..." stands for any number of
  lines. The exit code is not checked: several
  blocks show errors on purpose.
- The examples table of examples/README.md: every `mvn ...` cell runs and must exit 0.

Files named by commands (cluster and configuration files shown in the docs) come from
docs/check/, or from the page itself: a ```yaml, ```json, ```java or ```text block right under a
`<!-- docs-check file: NAME -->` line is written to NAME before the page's commands run. The
commands run in a scratch directory holding those files and links to the repository's top-level
entries, so `./kubesched` and `examples/...` resolve as in the docs.

A command that needs something CI does not have (a cluster, a container runtime) is listed in
EXCLUDED with the reason, and reported as skipped. Output is compared with absolute paths into
the scratch directory written as /home/me/, the directory the docs' commands are shown in.

Usage: .ci/docs-check.py [--list] [FILE...]
"""

import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "docs" / "check"
TIMEOUT = 900

# (regular expression searched in the command, reason it is not run in CI)
EXCLUDED = [
    (r"^\s*kubectl ", "needs a real cluster (kubectl)"),
    # (a `run` command that only shows a refused flag needs no cluster and runs)
    (
        r"^(?!.*--feature-gates).*kubesched run\b",
        "needs a real cluster (kubesched run); RunCommandTest covers it on FakeApiServer",
    ),
    (r"\bdocker\b", "needs a container runtime"),
    (r"^mvn -B -ntp verify$", "the whole build: what CI itself runs before this check (.ci/run)"),
    (r"-Pdist", "the distribution build and its test: .ci/run runs it before this check"),
    (
        r"archetype-plugin:[\d.]+:generate",
        "needs kubesched installed in the local Maven repository (mvn install is not run in CI);"
        " the same generation and build run in kubesched-plugin-archetype's integration test",
    ),
    (r"kubesched extender\b", "serves an extender until stopped; ExtenderExampleTest runs it"),
    (r"^(\.\/)?kubesched --plugins target/", "runs inside a generated plugin project"),
    (
        r"git archive",
        "builds another commit's benchmarks and runs a 5,000-node workload six times (minutes, and"
        " the scratch directory is no git checkout); BaselineComparisonTest runs the comparison"
        " mode with two real JVMs",
    ),
    (
        r"generate_large\.py 15\b",
        "the 15,000-node, 156,000-pod scale run (about 14 minutes of a CPU and a 4 GiB heap);"
        " the simulate tests and the README's quickstart run the same command at small sizes",
    ),
    (
        r"-Pproperties",
        "the long invariant run (>= 1,000,000 decisions, minutes); mvn verify runs the CI-sized"
        " default of the same properties",
    ),
]

# (regular expression searched in the command, server started in the scratch directory for the
# command's duration): the toy extender of configuration.md, on the port its ext.yaml names.
SERVICES = [
    (r"--config ext\.yaml\b", ["python3", "toy-extender.py", "18888"], 18888),
]

FENCE = re.compile(r"^```(\w*)\s*$")


def blocks(path):
    """Yields (line number, language, body lines, the non-blank line above) of the fenced blocks."""
    lines = path.read_text(encoding="utf-8").split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if m:
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            above = next((x for x in reversed(lines[:i]) if x.strip()), "")
            yield i + 1, m.group(1), lines[i + 1 : j], above
            i = j
        i += 1


def table_commands(path):
    """Yields (line number, command) of the `mvn ...` cells of Markdown tables."""
    for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        if line.startswith("|"):
            for cmd in re.findall(r"`(mvn [^`]+)`", line):
                yield n, cmd


def excluded(command):
    for pattern, reason in EXCLUDED:
        if re.search(pattern, command, re.MULTILINE):
            return reason
    return None


def missing_inputs(command, work):
    """Returns the *.yaml files a command names that exist neither in the repository nor in docs/check."""
    names = re.findall(r"(?<![\w/.-])([\w./-]+\.ya?ml)\b", command)
    # "nope.yaml" is the docs' example of a missing file.
    written = set(re.findall(r"open\(['\"]([\w./-]+)['\"],\s*['\"]w", command))
    written |= set(re.findall(r">\s*([\w./-]+\.ya?ml)\b", command))
    return [n for n in names if not (work / n).exists() and not n.startswith("nope") and n not in written]


def segments(body):
    """Splits a text block into ("$ command", expected output lines) segments, in order."""
    out = []
    k = 0
    while k < len(body):
        if not body[k].startswith("$ "):
            k += 1
            continue
        cmd = [body[k][2:]]
        k += 1
        while cmd[-1].rstrip().endswith("\\") and k < len(body):
            cmd.append(body[k])
            k += 1
        expected = []
        while k < len(body) and not body[k].startswith("$ "):
            expected.append(body[k])
            k += 1
        out.append(("\n".join(cmd), expected))
    return out


def matches(expected, actual):
    """Whether actual lines equal expected ones, "..." matching any run of lines."""
    expected = [e.rstrip() for e in expected]
    actual = [a.rstrip() for a in actual]
    while actual and actual[-1] == "":
        actual.pop()
    while expected and expected[-1] == "":
        expected.pop()

    memo = {}

    def go(i, j):
        if (i, j) in memo:
            return memo[(i, j)]
        if i == len(expected):
            r = j == len(actual)
        elif expected[i] == "...":
            r = any(go(i + 1, k) for k in range(j, len(actual) + 1))
        else:
            r = j < len(actual) and expected[i] == actual[j] and go(i + 1, j + 1)
        memo[(i, j)] = r
        return r

    return go(0, 0)


def start_services(command, work):
    """Starts the servers a command needs (SERVICES) and waits until they accept connections."""
    started = []
    for pattern, argv, port in SERVICES:
        if re.search(pattern, command):
            proc = subprocess.Popen(argv, cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            started.append(proc)
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                with socket.socket() as s:
                    if s.connect_ex(("127.0.0.1", port)) == 0:
                        break
                time.sleep(0.05)
    return started


def run(script, work):
    """Runs a bash script in work; returns (exit code, standard output followed by standard error)."""
    services = start_services(script, work)
    try:
        return run_script(script, work)
    finally:
        for proc in services:
            proc.kill()
            proc.wait()


def run_script(script, work):
    env = dict(os.environ, KUBESCHED_JAVA_OPTS=os.environ.get("KUBESCHED_JAVA_OPTS", ""))
    env.pop("KUBESCHED_PLUGINS", None)
    p = subprocess.run(
        ["bash", "-c", script],
        cwd=work,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        timeout=TIMEOUT,
    )
    # the docs show commands run in /home/me: absolute paths into the scratch directory read so
    out = (p.stdout + p.stderr).replace(str(work) + "/", "/home/me/")
    return p.returncode, out


def scratch():
    work = Path(tempfile.mkdtemp(prefix="kubesched-docs-check-"))
    for entry in ROOT.iterdir():
        if entry.name not in (".git",):
            (work / entry.name).symlink_to(entry)
    if FIXTURES.is_dir():
        for f in FIXTURES.iterdir():
            if f.is_file() and not (work / f.name).exists():
                (work / f.name).symlink_to(f)
    return work


def main(argv):
    list_only = "--list" in argv
    files = [Path(a) for a in argv if not a.startswith("--")]
    if not files:
        files = [ROOT / "README.md", ROOT / "examples" / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
    work = scratch()
    failures, ran, skipped = [], 0, []
    for f in files:
        rel = f.resolve().relative_to(ROOT)
        checks = []
        for line, lang, body, above in blocks(f):
            marker = re.match(r"<!-- docs-check file: (\S+) -->", above.strip())
            if marker and lang in ("yaml", "json", "java", "text"):
                (work / marker.group(1)).write_text("\n".join(body) + "\n", encoding="utf-8")
            if lang in ("sh", "bash"):
                checks.append((line, "\n".join(body), None))
            elif lang == "text" and body and body[0].startswith("$ "):
                for cmd, expected in segments(body):
                    checks.append((line, cmd, expected))
        if f.name == "README.md" and f.parent.name == "examples":
            checks += [(n, cmd, None) for n, cmd in table_commands(f)]
        last_code = 0
        for line, cmd, expected in checks:
            where = f"{rel}:{line}"
            if cmd.strip() == "echo $?":
                if not list_only and [e for e in expected if e.strip()] != [str(last_code)]:
                    failures.append(f"{where}: exit code {last_code}, documented {expected}")
                continue
            reason = excluded(cmd)
            if reason is None:
                missing = missing_inputs(cmd, work)
                if missing:
                    reason = "input not in the repository or docs/check/: " + ", ".join(missing)
            if reason:
                skipped.append((where, cmd.split("\n")[0], reason))
                continue
            if list_only:
                print(f"RUN  {where}: {cmd.splitlines()[0]}")
                continue
            ran += 1
            before = len(failures)
            code, out = run(("set -e\n" if expected is None else "") + cmd, work)
            last_code = code
            if expected is None and code != 0:
                failures.append(f"{where}: exit code {code}: {cmd}\n{out[-4000:]}")
            elif expected is not None and not matches(expected, out.split("\n")):
                failures.append(
                    f"{where}: output differs from the docs: {cmd}\n--- documented\n"
                    + "\n".join(expected)
                    + "\n--- actual\n"
                    + out
                )
            print(("ok   " if len(failures) == before else "FAIL ") + where, flush=True)
    for where, cmd, reason in skipped:
        print(f"skip {where}: {cmd} -- {reason}")
    for fail in failures:
        print("\nFAIL " + fail, file=sys.stderr)
    print(f"\ndocs check: {ran} run, {len(failures)} failed, {len(skipped)} excluded")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
