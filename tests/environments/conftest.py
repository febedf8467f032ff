import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
for p in (str(HERE.parents[1]), str(HERE.parents[1] / "tests" / "soundness"), str(HERE.parents[1] / "tests" / "mcp"), str(HERE)):
    if p not in sys.path:
        sys.path.insert(0, p)
