"""The package (and these tests) must run on Python 3.9: no 3.10+ syntax anywhere."""

import ast
import unittest
from pathlib import Path
from typing import List

ROOT = Path(__file__).resolve().parents[1]


def python_files() -> List[Path]:
    return sorted((ROOT / "orgit").glob("*.py")) + sorted((ROOT / "tests").glob("*.py"))


class Python39Syntax(unittest.TestCase):
    def test_every_file_parses_as_python_3_9(self) -> None:
        files = python_files()
        self.assertIn(ROOT / "orgit" / "client.py", files)
        for path in files:
            with self.subTest(file=path.name):
                ast.parse(path.read_text("utf-8"), filename=str(path), feature_version=(3, 9))

    def test_no_union_operator_in_annotations(self) -> None:
        # `X | None` parses on 3.9 but fails when evaluated (e.g. dataclass/TypedDict fields)
        for path in python_files():
            tree = ast.parse(path.read_text("utf-8"))
            annotations = [
                node.annotation for node in ast.walk(tree)
                if isinstance(node, (ast.arg, ast.AnnAssign)) and node.annotation is not None
            ] + [node.returns for node in ast.walk(tree)
                 if isinstance(node, ast.FunctionDef) and node.returns is not None]
            for annotation in annotations:
                for part in ast.walk(annotation):
                    if isinstance(part, ast.BinOp) and isinstance(part.op, ast.BitOr):
                        self.fail(f"{path.name}:{part.lineno} uses X | Y in an annotation")

    def test_feature_version_rejects_newer_syntax(self) -> None:
        # the check above would be worthless if feature_version were ignored
        with self.assertRaises(SyntaxError):
            ast.parse("match x:\n    case 1:\n        pass\n", feature_version=(3, 9))


if __name__ == "__main__":
    unittest.main()
