"""Write requirements.lock: the exact version of every package that ``.[dev]`` (all the
extras, the test tools and linters) needs, as pip's resolver picks them.

By default the resolver keeps the versions installed in the running environment (the
virtual environment the tests passed in) and resolves only what it lacks; ``--fresh``
lets it pick the newest versions the ranges of pyproject.toml allow. ``make`` installs
the lock, then the project itself with ``--no-deps``.

    .venv/bin/python scripts/lock.py [--fresh]
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEADER = """\
# Exact versions of everything `.[dev]` needs (every extra, test tools, linters), as pip
# resolved them for Python 3.11 on Linux x86-64. `make` installs this file, then the
# project with --no-deps. Regenerate after changing pyproject.toml:
#     .venv/bin/python scripts/lock.py            (keep the versions installed in .venv)
#     .venv/bin/python scripts/lock.py --fresh    (newest versions the ranges allow)
"""


def resolve(fresh: bool) -> list[tuple[str, str]]:
    """(name, version) of every package pip would install for ``.[dev]``."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp, "report.json")
        cmd = [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed"]
        cmd += ["--quiet", "--report", str(report)]
        if not fresh:
            listed = subprocess.run(
                [sys.executable, "-m", "pip", "list", "--format=json", "--exclude-editable"],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            constraints = Path(tmp, "constraints.txt")
            constraints.write_text(
                "".join(f"{p['name']}=={p['version']}\n" for p in json.loads(listed))
            )
            cmd += ["--constraint", str(constraints)]
        env = dict(os.environ, SHENGJI_PURE="1")  # metadata only: no kernel build
        subprocess.run([*cmd, ".[dev]"], check=True, cwd=ROOT, env=env)
        data = json.loads(report.read_text())
    pins = {
        (item["metadata"]["name"].lower(), item["metadata"]["version"])
        for item in data["install"]
        if item["metadata"]["name"].lower() != "shengji"
    }
    return sorted(pins)


def main() -> int:
    """Write requirements.lock next to pyproject.toml."""
    pins = resolve("--fresh" in sys.argv[1:])
    text = HEADER + "".join(f"{name}=={version}\n" for name, version in pins)
    (ROOT / "requirements.lock").write_text(text, encoding="utf-8")
    print(f"requirements.lock: {len(pins)} packages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
