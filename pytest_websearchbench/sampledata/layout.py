"""Where each generated file lives, relative to the output directory (``suites/``)."""

CORPUS = "sample-web/corpus.jsonl"
MANIFEST = "suite.json"  # in each suite's folder

SCENARIO_DIR = "lexbench-sample"
SCENARIO_ITEMS = f"{SCENARIO_DIR}/items.jsonl"
GRADES = f"{SCENARIO_DIR}/grades.jsonl"
MODEL_GRADES = f"{SCENARIO_DIR}/grades-model.jsonl"

FACTUAL_DIR = "lexbench-sample-factual"
FACTUAL_ITEMS = f"{FACTUAL_DIR}/items.jsonl"

CODE_DIR = "code-sample"
CODE_ROWS = f"{CODE_DIR}/eval.jsonl"
