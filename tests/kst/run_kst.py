#!/usr/bin/env python3
"""Kaitai Struct's own test specs (.kst) run through binform (make kst).

For each spec: import its format (`id`.ksy) with `bfgen import`, and the formats it imports;
read its input with `binform dump --schema`; check every assert on the dump (or, where the spec
names an exception, that the read fails with binform's error of that kind: EndOfStreamError is
"needs N bytes but only M remain", ValidationNotEqualError "expected X, found Y"; a spec naming
another kind is declined); try `binform roundtrip` on the input. A spec binform
cannot run is declined with its reason (an import error naming the Kaitai construct, an assert
expression the checker cannot evaluate, ...). Prints one line per spec, the declined specs by
reason, and `N passed, M failed, K declined`.

The specs, formats and inputs are read where they are (KST_ROOT, default ../shared/kaitai-tests);
nothing of them is copied into the project.
"""
import argparse
import collections
import concurrent.futures
import json
import math
import os
import re
import subprocess
import sys

try:
    import yaml
except ImportError:
    print("kst: Python's yaml module is missing (Debian: python3-yaml)")
    sys.exit(2)

# ---- Kaitai's expression language, as far as the asserts use it, over binform's dump ----


class Unsupported(Exception):
    """An assert binform's checker cannot evaluate: the spec is declined, not failed."""


class EnumLit:
    def __init__(self, path, enums=None):
        self.path = path
        self.name = path.split("::")[-1]
        self.enums = enums or {}  # enum name -> {member: value}, of the imported schema

    def __repr__(self):
        return self.path


TOKEN = re.compile(r"""\s*(?:
    (?P<num>0x[0-9a-fA-F_]+|0b[01_]+|0o[0-7_]+|\d[\d_]*\.\d+(?:[eE][-+]?\d+)?|\d[\d_]*(?:[eE][-+]?\d+)?)|
    (?P<str>"(?:[^"\\]|\\.)*"|'[^']*')|
    (?P<name>[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*)|
    (?P<op>==|!=|<=|>=|<<|>>|[-+*/%<>()\[\].,?:&|^~!])
    )""", re.X)


def tokenize(text):
    pos, out = 0, []
    text = text.strip()
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise Unsupported(f"cannot read '{text[pos:]}'")
        pos = m.end()
        kind = m.lastgroup
        out.append((kind, m.group(kind)))
    return out


class Value:
    """A dumped value with the binform type it has in the schema (for bytes versus text)."""

    def __init__(self, json_value, ftype):
        self.v = json_value
        self.t = ftype


class Evaluator:
    def __init__(self, schema, root):
        self.schema = schema  # type name -> list of fields
        self.root = root

    def parse(self, text):
        self.toks = tokenize(text)
        self.i = 0
        v = self.ternary()
        if self.i != len(self.toks):
            raise Unsupported(f"cannot read '{text}'")
        return v

    def peek(self, val=None):
        if self.i < len(self.toks) and (val is None or self.toks[self.i][1] == val):
            return self.toks[self.i]
        return None

    def take(self, val):
        if self.peek(val):
            self.i += 1
            return True
        return False

    def ternary(self):
        c = self.binary(0)
        if self.take("?"):
            a = self.ternary()
            if not self.take(":"):
                raise Unsupported("':' expected")
            b = self.ternary()
            return a if truth(c) else b
        return c

    LEVELS = [["or"], ["and"], ["==", "!=", "<", ">", "<=", ">="], ["|"], ["^"], ["&"], ["<<", ">>"], ["+", "-"],
              ["*", "/", "%"]]

    def binary(self, level):
        if level == len(self.LEVELS):
            return self.unary()
        a = self.binary(level + 1)
        while self.peek() and self.peek()[1] in self.LEVELS[level]:
            op = self.toks[self.i][1]
            self.i += 1
            b = self.binary(level + 1)
            a = apply_op(op, a, b)
        return a

    def unary(self):
        if self.take("-"):
            return -number(self.unary())
        if self.take("not"):
            return not truth(self.unary())
        if self.take("~"):
            return ~number(self.unary())
        return self.postfix()

    def postfix(self):
        v = self.primary()
        while True:
            if self.take("."):
                tok = self.peek()
                if not tok or tok[0] != "name":
                    raise Unsupported("a name after '.' expected")
                self.i += 1
                name = tok[1]
                if name == "as" and self.peek("<"):
                    depth = 0  # a cast: the dumped value already is what it is cast to
                    while self.i < len(self.toks):
                        t = self.toks[self.i][1]
                        self.i += 1
                        depth += t == "<"
                        depth -= t == ">"
                        if depth == 0:
                            break
                    if isinstance(v, Value) and isinstance(v.v, dict) and "case" in v.v and "raw" in v.v:
                        v = self.case_value(v)
                    continue
                v = self.member(v, name)
            elif self.take("["):
                idx = number(self.ternary())
                if not self.take("]"):
                    raise Unsupported("']' expected")
                v = self.index(v, idx)
            else:
                return v

    def primary(self):
        tok = self.peek()
        if not tok:
            raise Unsupported("unexpected end")
        self.i += 1
        kind, text = tok
        if kind == "num":
            t = text.replace("_", "")
            if t.startswith(("0x", "0b", "0o")):
                return int(t, 0)
            return float(t) if ("." in t or "e" in t.lower()) else int(t)
        if kind == "str":
            return bytes(text[1:-1], "utf-8").decode("unicode_escape") if text[0] == '"' else text[1:-1]
        if text == "(":
            v = self.ternary()
            if not self.take(")"):
                raise Unsupported("')' expected")
            return v
        if text == "[":
            items = []
            while not self.take("]"):
                items.append(number(self.ternary()))
                self.take(",")
            return bytes(items) if all(0 <= x < 256 for x in items) else items
        if kind == "name":
            if text in ("true", "false"):
                return text == "true"
            if text == "null":
                return None
            if "::" in text:
                return EnumLit(text, self.schema.get("_enums"))
            if text.startswith("_"):
                raise Unsupported(f"Kaitai's '{text}' in an assert")
            return self.member(self.root, text)
        raise Unsupported(f"unexpected '{text}'")

    def fields_of(self, tname):
        return self.schema.get(tname)

    def case_value(self, v):
        case = v.v.get("case")
        ctype = (v.t or {}).get("cases", {}).get(case) if isinstance(v.t, dict) else None
        if case == "default" and isinstance(v.t, dict):
            ctype = v.t.get("default")
        if v.v.get("value") is None:
            return Value(bytes.fromhex(v.v.get("raw") or ""), "bytes")
        return Value(v.v["value"], ctype)

    def member(self, v, name):
        if not isinstance(v, Value):
            raise Unsupported(f"'.{name}' on {v!r}")
        if isinstance(v.v, dict) and "case" in v.v and "raw" in v.v:
            v = self.case_value(v)
        if name in ("length", "size") and not isinstance(v.v, dict):
            return len(plain(v))
        if name == "to_i":
            return number(v)
        if name in ("first", "last") and isinstance(v.v, list):
            return self.index(v, 0 if name == "first" else len(v.v) - 1)
        if name in ("min", "max") and isinstance(v.v, list):
            items = [number(self.index(v, i)) for i in range(len(v.v))]
            return min(items) if name == "min" else max(items)
        if not isinstance(v.v, dict):
            raise Unsupported(f"'.{name}' on a {type(v.v).__name__}")
        if name in v.v:
            return Value(v.v[name], self.field_type(v.t, name))
        computed = v.v.get("_computed") or {}
        if name in computed:
            return Value(computed[name], "value")
        # Kaitai's bit fields, packed by the importer into `bitsN` with `bits:` sub-fields
        for key, val in v.v.items():
            if key.endswith("_" + name) and key[: -len(name) - 1] in v.v and re.fullmatch(r"bits\d+", key[: -len(name) - 1]):
                return Value(val, "u64")
        if any(f.get("name") == name for f in self.fields_of(v.t) or []):
            return None  # a field the dump leaves out: absent (`if`)
        raise Unsupported(f"no field '{name}' in the dump")

    def field_type(self, tname, name):
        for f in self.fields_of(tname) or []:
            if f.get("name") == name:
                return f.get("type")
        return None

    def index(self, v, i):
        if isinstance(v, (bytes, list)):
            return v[i]
        if not isinstance(v, Value):
            raise Unsupported("index on a non-array")
        p = plain(v)
        if isinstance(v.v, list):
            t = v.t[:-2] if isinstance(v.t, str) and v.t.endswith("[]") else (re.sub(r"\[[^\]]*\]$", "", v.t) if isinstance(v.t, str) else None)
            return Value(v.v[i], t)
        return p[i]


def plain(v):
    """A dumped value as Python compares it: numbers, text, bytes, lists."""
    if not isinstance(v, Value):
        return v
    j, t = v.v, v.t if isinstance(v.t, str) else ""
    if isinstance(j, dict) and set(j) == {"name", "value"}:
        return EnumValue(j["name"], j["value"])
    if isinstance(j, str):
        if t.startswith("bytes") or t == "bytes":
            return bytes.fromhex(j)
        if re.fullmatch(r"-?\d+", j) and not (t.startswith("char") or t.startswith("cstr")):
            return int(j)  # integers beyond 2^53 are dumped as decimal strings
        return j
    if isinstance(j, list):
        et = t[:-2] if t.endswith("[]") else re.sub(r"\[[^\]]*\]$", "", t)
        return [plain(Value(x, et)) for x in j]
    return j


class EnumValue:
    def __init__(self, name, value):
        self.name, self.value = name, value

    def __eq__(self, other):
        if isinstance(other, EnumLit):
            return self.name == other.name
        if isinstance(other, EnumValue):
            return self.value == other.value
        return self.value == other

    def __repr__(self):
        return f"{self.name}({self.value})"


def number(v):
    v = plain(v)
    if isinstance(v, EnumValue):
        return v.value
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, (int, float)):
        return v
    raise Unsupported(f"a number expected, not {v!r}")


def truth(v):
    return bool(number(v))


def apply_op(op, a, b):
    a, b = plain(a), plain(b)
    if op in ("==", "!="):
        eq = same(a, b)
        return eq if op == "==" else not eq
    if op == "and":
        return truth(a) and truth(b)
    if op == "or":
        return truth(a) or truth(b)
    if op == "+" and isinstance(a, (str, bytes)):
        return a + b
    x, y = number(a), number(b)
    if op == "/":
        return x // y if isinstance(x, int) and isinstance(y, int) else x / y
    ops = {"+": lambda: x + y, "-": lambda: x - y, "*": lambda: x * y, "%": lambda: x % y, "<": lambda: x < y,
           ">": lambda: x > y, "<=": lambda: x <= y, ">=": lambda: x >= y, "<<": lambda: x << y, ">>": lambda: x >> y,
           "&": lambda: x & y, "|": lambda: x | y, "^": lambda: x ^ y}
    return ops[op]()


def same(a, b):
    a, b = plain(a), plain(b)
    if isinstance(b, EnumValue) or (isinstance(b, EnumLit) and not isinstance(a, EnumValue)):
        a, b = b, a
    if isinstance(a, EnumValue):
        return a == b
    if isinstance(a, EnumLit) and isinstance(b, int) and not isinstance(b, bool):
        # a named value holds the enum's number: the member's value in the schema's enum
        parts = a.path.split("::")
        enum = "".join(p.title().replace("_", "") for p in parts[-2:-1])
        return any(members.get(a.name) == b for name, members in a.enums.items() if name.endswith(enum))
    if isinstance(a, float) or isinstance(b, float):
        if isinstance(a, (int, float)) and isinstance(b, (int, float)):
            return math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-300)
    if isinstance(a, bytes) and isinstance(b, str):
        return a == b.encode("utf-8")
    if isinstance(a, str) and isinstance(b, bytes):
        return a.encode("utf-8") == b
    if isinstance(a, list) and isinstance(b, bytes):
        return bytes(a) == b if all(isinstance(x, int) and 0 <= x < 256 for x in a) else False
    return a == b


# ---- running one spec ----


def ksy_imports(ksy_path):
    with open(ksy_path, encoding="utf-8") as f:
        doc = yaml.safe_load(f)
    return ((doc or {}).get("meta") or {}).get("imports") or []


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def first_error(stderr):
    for line in stderr.splitlines():
        if ": error: " in line:
            return line
    lines = [l for l in stderr.splitlines() if "warning:" not in l]
    return lines[0] if lines else "failed"


def import_format(opts, ksy, out_yaml):
    """Imports `ksy` (bfgen import writes what it imports beside it); an error text or None."""
    os.makedirs(os.path.dirname(out_yaml), exist_ok=True)
    # absolute imports (`/dir/name`) are looked for where Kaitai's tests look: formats/ks_path
    r = run([opts.bfgen, "import", ksy, "-I", os.path.join(opts.formats, "ks_path"), "-I", opts.formats, "-o", out_yaml])
    if r.returncode != 0:
        return "\n".join(l for l in r.stderr.splitlines() if ": error: " in l) or first_error(r.stderr)
    return None


def load_schema(path, types, seen):
    if path in seen or not os.path.exists(path):
        return
    seen.add(path)
    with open(path, encoding="utf-8") as f:
        doc = yaml.safe_load(f)
    for name, t in (doc.get("types") or {}).items():
        types[name] = t.get("fields") or []
    for name, e in (doc.get("enums") or {}).items():
        types.setdefault("_enums", {})[name] = {m: (v["value"] if isinstance(v, dict) else v)
                                                for m, v in (e.get("values") or {}).items()}
    imports = doc.get("imports") or []
    for name in [imports] if isinstance(imports, str) else imports:
        load_schema(os.path.join(os.path.dirname(path), name), types, seen)
        load_schema(os.path.join(os.path.dirname(path), "..", name), types, seen)


# Kaitai's exceptions and the read errors of binform's that are the same failure.
EXCEPTION_MESSAGES = [
    ("EndOfStreamError", r"needs \d+ bytes? but only \d+ remains?|past the end"),
    ("ValidationNotEqualError", r"expected .*, found "),
]


def spec_result(opts, kst_path):
    """(status, spec id, detail, roundtrip ok)."""
    try:
        with open(kst_path, encoding="utf-8") as f:
            spec = yaml.safe_load(f)
        if not isinstance(spec, dict):
            raise ValueError("not a map")
    except (OSError, ValueError, yaml.YAMLError) as e:
        return "declined", os.path.basename(kst_path)[:-4], f"the spec cannot be read: {e}", False
    sid = str(spec.get("id") or os.path.basename(kst_path)[:-4])
    ksy = os.path.join(opts.formats, sid + ".ksy")
    data = os.path.join(opts.inputs, str(spec.get("data", "")))
    if not os.path.exists(ksy):
        return "declined", sid, f"no format {sid}.ksy", False
    if not os.path.exists(data):
        return "declined", sid, f"no input {spec.get('data')}", False
    # a folder per spec: a format imported by another holds only the types that one reads
    out_yaml = os.path.join(opts.out, sid, sid + ".yaml")
    err = import_format(opts, ksy, out_yaml)
    if err:
        return "declined", sid, "import: " + err.replace(opts.formats + "/", "").replace("\n", "\n    "), False
    base = [opts.binform]
    schema = ["--schema", out_yaml, "--schema-path", os.path.dirname(out_yaml), "--format", sid]
    dump = run(base + ["dump", "--compact"] + schema + [data], env=opts.env)
    if dump.returncode == 2 and "bfgen" in dump.stderr or "compile" in dump.stderr:
        return "declined", sid, "schema: " + first_error(dump.stderr).replace(os.path.dirname(out_yaml) + "/", ""), False
    rt = run(base + ["roundtrip"] + schema + [data], env=opts.env)
    roundtrip = "identical" if rt.returncode == 0 and "identical" in rt.stdout + rt.stderr else None
    if not roundtrip and dump.returncode == 0:
        # Kaitai reads a prefix of the file and ignores the rest: built from the dump, is the
        # file the same bytes as that prefix?
        json_path, built = out_yaml[:-5] + ".json", out_yaml[:-5] + ".built"
        with open(json_path, "w", encoding="utf-8") as f:
            f.write(dump.stdout)
        b = run(base + ["build"] + schema[:4] + [json_path, "-o", built], env=opts.env)
        if b.returncode == 0:
            with open(built, "rb") as f1, open(data, "rb") as f2:
                made, original = f1.read(), f2.read()
            if made and original.startswith(made):
                roundtrip = "prefix"
    if "exception" in spec:
        exc = spec["exception"]
        kind = str(exc.get("type") if isinstance(exc, dict) else exc)
        if dump.returncode == 0:
            return "failed", sid, f"read succeeded; expected {kind}", roundtrip
        message = first_error(dump.stderr)
        pattern = next((p for k, p in EXCEPTION_MESSAGES if kind.startswith(k)), None)
        if pattern is None:
            return "declined", sid, f"exception {kind}: binform has no error of that kind to compare", roundtrip
        if not re.search(pattern, message):
            return "failed", sid, f"expected {kind}, but the read failed with: {message}", roundtrip
        return "passed", sid, "", roundtrip
    if dump.returncode != 0:
        return "failed", sid, "read: " + first_error(dump.stderr), roundtrip
    types = {}
    load_schema(out_yaml, types, set())
    doc = json.loads(dump.stdout)
    root_type = sid.title().replace("_", "")
    ev = Evaluator(types, Value(doc["root"], next((t for t in types if t.lower() == root_type.lower()), root_type)))
    for a in spec.get("asserts") or []:
        actual, expected = str(a.get("actual")), a.get("expected")
        try:
            got = ev.parse(actual)
            want = ev.parse(expected) if isinstance(expected, str) else expected
        except Unsupported as e:
            return "declined", sid, f"assert '{actual}': unsupported expression ({e})", roundtrip
        except (IndexError, KeyError, TypeError, ValueError, ZeroDivisionError) as e:
            return "failed", sid, f"assert '{actual}': {type(e).__name__} {e}", roundtrip
        if not same(got, want):
            return "failed", sid, f"{actual}: expected {expected!r}, got {plain(got)!r}", roundtrip
    return "passed", sid, "", roundtrip


def guarded(opts, kst_path):
    """spec_result, with what the runner did not foresee counted as a failure, not a crash."""
    try:
        return spec_result(opts, kst_path)
    except Exception as e:  # noqa: BLE001 - any surprise is one failed spec, reported
        return "failed", os.path.basename(kst_path)[:-4], f"the runner: {type(e).__name__}: {e}", False


def reason_key(detail):
    """The construct a declined spec is blocked by, for the tally."""
    m = re.search(r"Kaitai's (.*?)(?: \(| cannot| is not| here| in type| on a| of a|$)", detail)
    if m:
        return m.group(1).strip()
    m = re.search(r"error: (.*)", detail)
    text = m.group(1) if m else detail
    return re.sub(r"'[^']*'", "'...'", text)[:90]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    project = os.path.dirname(os.path.dirname(here))
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--specs", help="folder of .kst files (default: KST_ROOT/spec/ks)")
    p.add_argument("--root", default=os.environ.get("KST_ROOT", os.path.join(project, "..", "shared", "kaitai-tests")))
    p.add_argument("--bfgen", default=os.path.join(project, "build/bin/bfgen"))
    p.add_argument("--binform", default=os.path.join(project, "build/bin/binform"))
    p.add_argument("--out", default=os.path.join(project, "build/kst"))
    p.add_argument("-j", "--jobs", type=int, default=2)
    opts = p.parse_args()
    opts.root = os.path.abspath(opts.root)
    opts.formats = os.path.join(opts.root, "formats")
    opts.inputs = os.path.join(opts.root, "src")
    opts.specs = os.path.abspath(opts.specs or os.path.join(opts.root, "spec", "ks"))
    opts.out = os.path.abspath(opts.out)
    if not os.path.isdir(opts.specs) or not os.path.isdir(opts.formats):
        print(f"kst: skipped: no specs in {opts.specs} or no formats in {opts.formats}")
        return 0
    os.makedirs(opts.out, exist_ok=True)
    opts.env = dict(os.environ, XDG_CACHE_HOME=os.path.join(opts.out, "cache"))
    specs = sorted(os.path.join(opts.specs, n) for n in os.listdir(opts.specs) if n.endswith(".kst"))
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as pool:
        results = list(pool.map(lambda s: guarded(opts, s), specs))
    counts = collections.Counter(r[0] for r in results)
    for status, sid, detail, _ in results:
        if status != "declined":
            print(f"{status.upper():8} {sid}" + (f": {detail}" if detail else ""))
    declined = [r for r in results if r[0] == "declined"]
    if declined:
        print(f"-- declined ({len(declined)}):")
        for _, sid, detail, _ in declined:
            print(f"DECLINED {sid}: {detail}")
        print("-- declined, by construct:")
        # every construct a spec's import reports, once per spec; "alone" counts the specs
        # that construct is the only thing blocking
        tally, alone = collections.Counter(), collections.Counter()
        for r in declined:
            keys = {reason_key(line) for line in r[2].split("\n")}
            tally.update(keys)
            if len(keys) == 1:
                alone.update(keys)
        print(f"{'specs':>5} {'alone':>5}  construct")
        for reason, n in tally.most_common():
            print(f"{n:5} {alone[reason]:5}  {reason}")
    exact = sum(1 for r in results if r[3] == "identical")
    prefix = sum(1 for r in results if r[3] == "prefix")
    print(f"round trip: {exact} of {len(results)} inputs byte-exact through the imported schema (binform roundtrip); "
          f"{prefix} more rebuilt byte-exact over the bytes the format reads (the rest of the file Kaitai ignores too)")
    print(f"{counts['passed']} passed, {counts['failed']} failed, {counts['declined']} declined")
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
