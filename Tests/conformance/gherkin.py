"""A small Gherkin parser: what OSRM's cucumber features use.

Feature (with tags), Background, Scenario, Scenario Outline / Scenario Template with Examples,
Rule (its Background applies to its scenarios), steps (Given/When/Then/And/But/*), data tables
(cells unescaped as Gherkin does: \\| \\\\ \\n) and doc strings (\"\"\" or ```, dedented to the
column of the opening delimiter, as Gherkin does). A `Background:` line inside a scenario is read
as part of that scenario (its steps stay where they are). Comments (# at the start of a line outside a
doc string) and blank lines are skipped. Standard library only.
"""

import re
from dataclasses import dataclass, field
from typing import List, Optional

STEP_KEYWORDS = ("Given ", "When ", "Then ", "And ", "But ", "* ")


@dataclass
class Step:
    keyword: str
    text: str
    line: int
    table: Optional[List[List[str]]] = None  # rows of cells, first row = header
    docstring: Optional[str] = None

    def hashes(self):
        """cucumber's table.hashes(): one dict per data row, keyed by the header."""
        if not self.table:
            return []
        head = self.table[0]
        return [dict(zip(head, row)) for row in self.table[1:]]


@dataclass
class Scenario:
    name: str
    line: int
    tags: List[str]
    steps: List[Step]
    background: List[Step] = field(default_factory=list)
    example: Optional[dict] = None  # the Examples row of an outline


@dataclass
class Feature:
    path: str
    name: str
    tags: List[str]
    scenarios: List[Scenario]


class GherkinError(Exception):
    pass


def _split_row(line: str) -> List[str]:
    """Cells of a `| a | b |` row, unescaped like Gherkin (\\| → |, \\\\ → \\, \\n → newline)."""
    s = line.strip()
    if not s.startswith("|"):
        raise GherkinError("not a table row")
    cells, cur, i = [], [], 1
    while i < len(s):
        ch = s[i]
        if ch == "\\" and i + 1 < len(s):
            nxt = s[i + 1]
            if nxt == "|":
                cur.append("|")
            elif nxt == "\\":
                cur.append("\\")
            elif nxt == "n":
                cur.append("\n")
            else:
                cur.append("\\" + nxt)
            i += 2
            continue
        if ch == "|":
            cells.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
        i += 1
    # text after the last | (none in well-formed rows) is dropped, as Gherkin does
    return cells


def _substitute(text: str, values: dict) -> str:
    for k, v in values.items():
        text = text.replace("<%s>" % k, v)
    return text


def parse(path: str) -> Feature:
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")

    feature = None
    pending_tags: List[str] = []
    background: List[Step] = []
    rule_background: Optional[List[Step]] = None
    current = None  # dict: kind, name, line, tags, steps, examples
    section = None  # 'background' | 'scenario' | 'examples'
    blocks = []  # finished scenario dicts
    last_step: Optional[Step] = None
    examples_table: Optional[List[List[str]]] = None
    i = 0

    def finish_current():
        nonlocal current
        if current is not None:
            current["background"] = list(background) + list(rule_background or [])
            blocks.append(current)
        current = None

    while i < len(lines):
        raw = lines[i]
        stripped = raw.strip()
        lineno = i + 1
        i += 1
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith('"""') or stripped.startswith("```"):
            delim = stripped[:3]
            indent = len(raw) - len(raw.lstrip())
            body = []
            while i < len(lines):
                l2 = lines[i]
                i += 1
                if l2.strip().startswith(delim):
                    break
                # Gherkin: remove up to `indent` leading whitespace characters
                lead = len(l2) - len(l2.lstrip())
                body.append(l2[min(lead, indent):])
            else:
                raise GherkinError("%s:%d: unterminated doc string" % (path, lineno))
            if last_step is None:
                raise GherkinError("%s:%d: doc string without a step" % (path, lineno))
            text = "\n".join(body)
            if delim == '"""':
                text = text.replace('\\"\\"\\"', '"""')
            last_step.docstring = text
            continue
        if stripped.startswith("|"):
            row = _split_row(stripped)
            if section == "examples":
                examples_table.append(row)
            elif last_step is not None:
                if last_step.table is None:
                    last_step.table = []
                last_step.table.append(row)
            else:
                raise GherkinError("%s:%d: table without a step" % (path, lineno))
            continue
        if stripped.startswith("@"):
            pending_tags.extend(t for t in re.split(r"\s+", stripped) if t.startswith("@"))
            continue
        m = re.match(r"^(Feature|Background|Scenario Outline|Scenario Template|Scenario|Example|Examples|Scenarios|Rule):\s*(.*)$", stripped)
        if m:
            kw, name = m.group(1), m.group(2).strip()
            last_step = None
            if kw == "Feature":
                feature = Feature(path=path, name=name, tags=pending_tags, scenarios=[])
                pending_tags = []
                section = None
            elif kw == "Rule":
                finish_current()
                rule_background = []
                pending_tags = []
                section = None
            elif kw == "Background" and current is not None and section == "scenario":
                # a Background inside a scenario (car/classes.feature has one): its steps are
                # read as the scenario's own, where they stand
                pass
            elif kw == "Background":
                finish_current()
                section = "background"
                pending_tags = []
            elif kw in ("Scenario", "Example", "Scenario Outline", "Scenario Template"):
                finish_current()
                current = {"kind": "outline" if "Outline" in kw or "Template" in kw else "scenario",
                           "name": name, "line": lineno, "tags": pending_tags, "steps": [],
                           "examples": []}
                pending_tags = []
                section = "scenario"
            else:  # Examples / Scenarios
                if current is None:
                    raise GherkinError("%s:%d: Examples outside a scenario" % (path, lineno))
                examples_table = []
                current["examples"].append({"tags": pending_tags, "table": examples_table, "line": lineno})
                pending_tags = []
                section = "examples"
            continue
        kw = next((k for k in STEP_KEYWORDS if stripped.startswith(k)), None)
        if kw is not None:
            step = Step(keyword=kw.strip(), text=stripped[len(kw):].strip(), line=lineno)
            if section == "background":
                (rule_background if rule_background is not None else background).append(step)
            elif section == "scenario":
                current["steps"].append(step)
            else:
                raise GherkinError("%s:%d: step outside a scenario" % (path, lineno))
            last_step = step
            continue
        # free text (feature/scenario descriptions) is ignored
    finish_current()
    if feature is None:
        raise GherkinError("%s: no Feature" % path)

    for b in blocks:
        if b["kind"] == "scenario":
            feature.scenarios.append(Scenario(b["name"], b["line"], feature.tags + b["tags"],
                                              b["steps"], b["background"]))
            continue
        for ex in b["examples"]:
            table = ex["table"]
            if not table:
                continue
            head = table[0]
            for row in table[1:]:
                values = dict(zip(head, row))
                steps = []
                for s in b["steps"]:
                    steps.append(Step(
                        keyword=s.keyword, text=_substitute(s.text, values), line=s.line,
                        table=[[_substitute(c, values) for c in r] for r in s.table] if s.table else None,
                        docstring=_substitute(s.docstring, values) if s.docstring is not None else None))
                feature.scenarios.append(Scenario(_substitute(b["name"], values), b["line"],
                                                  feature.tags + b["tags"] + ex["tags"], steps,
                                                  b["background"], example=values))
    return feature
