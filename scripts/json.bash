# Reading JSON in ./sling-vt with a JSON parser (python3's json module), never by key order or layout.
# Sourced by ./sling-vt, which defines die. Needs python3 (checked by the commands that use it: need_tools).
#
#   json get PATH < DOC                 the value at PATH (keys and list indexes joined by '.', e.g. data.0.state):
#                                       a string as it is, anything else as compact JSON, nothing when absent or null
#   json each PATH FIELD < DOC          FIELD of each object in the list at PATH, one per line
#   json find PATH KEY VALUE FIELD < DOC
#                                       FIELD of the first object in the list at PATH whose KEY is the string VALUE
#   json merge NAME FILE... < DOC       DOC (an object) with each FILE's object under the key NAME, as compact JSON;
#                                       a FILE that is empty or no JSON object is left out
# Exits 2, saying so on stderr, when DOC is not JSON.

SLING_VT_JSON_PY='
import json, sys

def load(text):
    try:
        return json.loads(text)
    except ValueError as e:
        sys.stderr.write("sling-vt: the answer is not JSON (%s): %.200s\n" % (e, text))
        sys.exit(2)

def at(doc, path):
    for key in filter(None, path.split(".")):
        if isinstance(doc, dict):
            doc = doc.get(key)
        elif isinstance(doc, list) and key.isdigit() and int(key) < len(doc):
            doc = doc[int(key)]
        else:
            return None
    return doc

def show(value):
    if value is not None:
        print(value if isinstance(value, str) else json.dumps(value, separators=(",", ":"), ensure_ascii=False))

def objects(value):
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []

op, args = sys.argv[1], sys.argv[2:]
doc = load(sys.stdin.read())
if op == "get":
    show(at(doc, args[0]))
elif op == "each":
    for item in objects(at(doc, args[0])):
        show(item.get(args[1]))
elif op == "find":
    for item in objects(at(doc, args[0])):
        if item.get(args[1]) == args[2]:
            show(item.get(args[3]))
            break
elif op == "merge":
    if not isinstance(doc, dict):
        sys.stderr.write("sling-vt: the answer is not a JSON object\n")
        sys.exit(2)
    for name, path in zip(args[0::2], args[1::2]):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        try:
            part = json.loads(text)
        except ValueError:
            continue
        if isinstance(part, dict):
            doc[name] = part
    show(doc)
else:
    sys.exit("sling-vt: json: unknown operation " + op)
'

json() {
    PYTHONIOENCODING=utf-8 python3 -c "$SLING_VT_JSON_PY" "$@"
}
