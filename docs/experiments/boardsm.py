"""boards.py with another learned model: LMODEL=model.json python boardsm.py A B SEED START STOP OUT.json."""
import json, os
import hokm.bots.search as search
from hokm.bots.learned import TreeModel
_m = TreeModel(json.load(open(os.environ["LMODEL"])))
search.early_value_model = lambda: _m
import sys
sys.argv = ["boards"] + sys.argv[1:]
exec(open(__file__.replace("boardsm.py", "boards.py")).read())
