#!/usr/bin/env bash
# Check the Binder environment locally: a fresh virtual environment built from exactly what
# binder/ specifies (requirements.txt, then postBuild in a clean clone of HEAD), then every
# notebook executed in it (fresh kernel each; fails on errors, warnings, stderr output or a
# notebook slower than 30 s).
#   bash binder/verify.sh [WORKDIR]      (default: a new temporary directory)
set -euo pipefail
SECONDS=0
repo=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$(mktemp -d)}
python3 -m venv "$work/venv"
export PATH="$work/venv/bin:$PATH" HOME="$work/home"
mkdir -p "$HOME"
git clone -q "$repo" "$work/repo"
cd "$work/repo"
pip install -q -r binder/requirements.txt
bash binder/postBuild
cd "$work"   # outside the clone: the installed wheel is imported, not the source tree
python - "$work/repo/notebooks" <<'PY'
import glob, os, sys, tempfile, time
import nbclient, nbformat
failed = 0
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.ipynb"))):
    nb = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    try:
        nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                                resources={"metadata": {"path": tempfile.mkdtemp()}}).execute()
        bad = [o for c in nb.cells for o in c.get("outputs", [])
               if o.get("output_type") == "error" or o.get("name") == "stderr"
               or "Warning:" in str(o.get("text", ""))
               or "Warning:" in str(o.get("data", {}).get("text/plain", ""))]
    except Exception as exc:
        bad = [exc]
    seconds = time.perf_counter() - start
    if seconds > 30:
        bad.append(f"took {seconds:.1f} s (the lessons promise under 30 s)")
    failed += bool(bad)
    print(f"{'FAIL' if bad else 'ok  '} {os.path.basename(path)} {seconds:.1f} s", *bad[:1])
from tensorviz.viz._assets import asset_dir
print(f"python {sys.version.split()[0]}; tensorviz {__import__('tensorviz').__file__}; "
      f"widget assets {asset_dir()}")
sys.exit(1 if failed else 0)
PY
# The landing page: JupyterLab started from this environment sends / to the first lesson.
port=$(python -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
jupyter lab --no-browser --allow-root --ip=127.0.0.1 --port="$port" --ServerApp.port_retries=0 \
    --IdentityProvider.token= --ServerApp.password= --ServerApp.root_dir="$work/repo" \
    > "$work/lab.log" 2>&1 &
lab=$!
trap 'kill "$lab" 2>/dev/null || true' EXIT
python - "$port" <<'PY'
import sys, time, urllib.error, urllib.request
base = f"http://127.0.0.1:{sys.argv[1]}"
for _ in range(120):
    try:
        with urllib.request.urlopen(base + "/", timeout=10) as response:
            landing = response.geturl()
        break
    except (urllib.error.URLError, ConnectionError):
        time.sleep(0.5)
else:
    sys.exit("FAIL JupyterLab did not answer")
want = base + "/lab/tree/notebooks/00_welcome.ipynb"
print(f"{'ok  ' if landing == want else 'FAIL'} landing page {landing}")
sys.exit(0 if landing == want else 1)
PY
echo "binder environment built, every notebook run and the landing page checked in ${SECONDS} s"
