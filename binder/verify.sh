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
echo "binder environment built and every notebook run in ${SECONDS} s"
