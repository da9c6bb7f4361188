#!/usr/bin/env python3
"""The tests that keep the house as docs/ARCHITECTURE.md draws it (ctest label `style`; no compiler, a second each).

    house.py layers   every #include "x/..." in src/ and app/ is one the layer table (layers.txt) allows, and the
                      table allows nothing that the target_link_libraries graph of src/*/CMakeLists.txt does not
    house.py sizes    no .cpp in src/ui or src/models over 500 lines without a line in docs/ARCHITECTURE.md that
                      names it and says why; all src/ui/**/MainWindow*.cpp together at most 900 lines
    house.py folders  every src/ folder is a row of docs/ARCHITECTURE.md's folder table
    house.py threads  thread primitives only in src/base, but for the exceptions listed in threads.txt

Run from the source tree's root (ctest does). Each failure is printed as file:line: what, and the rule; the exit
status is 1 when anything failed.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
LAYERS = os.path.join(HERE, "layers.txt")
THREADS = os.path.join(HERE, "threads.txt")
ARCHITECTURE = "docs/ARCHITECTURE.md"
README = "README.md"

LONG_FILE_LINES = 500
LONG_FILE_FOLDERS = ("src/ui", "src/models")
MAIN_WINDOW_LINES = 900

SOURCE_SUFFIXES = (".cpp", ".h")


def relative(path):
    return os.path.relpath(path).replace(os.sep, "/")


def sources(*roots):
    """The C++ files below `roots`, sorted, as paths relative to the source tree."""
    found = []
    for root in roots:
        for folder, dirs, files in os.walk(root):
            dirs.sort()
            found += [relative(os.path.join(folder, name)) for name in sorted(files) if name.endswith(SOURCE_SUFFIXES)]
    return found


def src_folders():
    return sorted(name for name in os.listdir("src") if os.path.isdir(os.path.join("src", name)))


def read_lines(path):
    with open(path, encoding="utf-8", errors="replace") as file:
        return file.read().splitlines()


def data_lines(path):
    """(line number, text) of a data file's rows: '#' starts a comment, blank lines are skipped."""
    for number, line in enumerate(read_lines(path), 1):
        text = line.split("#", 1)[0].strip()
        if text:
            yield number, text


# --- layers -----------------------------------------------------------------------------------------------------


def link_graph():
    """folder -> (public, private) keylens_<folder> libraries its target_link_libraries names, for src/ and app/."""
    graph = {}
    targets = [("src/" + name, "keylens_" + name) for name in src_folders()]
    targets += [("app/" + name, name) for name in sorted(os.listdir("app")) if os.path.isdir(os.path.join("app", name))]
    for folder, target in targets:
        public, private = set(), set()
        cmake = os.path.join(folder, "CMakeLists.txt")
        text = open(cmake, encoding="utf-8").read() if os.path.exists(cmake) else ""
        text = re.sub(r"#[^\n]*", "", text)
        for call in re.finditer(r"target_link_libraries\(\s*([\w-]+)(.*?)\)", text, re.S):
            if call.group(1) != target:
                continue
            mode = "PRIVATE"
            for word in call.group(2).split():
                if word in ("PUBLIC", "PRIVATE", "INTERFACE"):
                    mode = word
                elif word.startswith("keylens_") and os.path.isdir(os.path.join("src", word[len("keylens_"):])):
                    (private if mode == "PRIVATE" else public).add(word[len("keylens_"):])
        graph[folder] = (public, private)
    return graph


def link_closure(graph, folder):
    """The src folders whose headers `folder` can compile against: what it links, and what those link publicly."""
    reach = set()
    todo = sorted(graph[folder][0] | graph[folder][1])
    while todo:
        name = todo.pop()
        if name in reach:
            continue
        reach.add(name)
        todo += sorted(graph["src/" + name][0])
    return reach


def layer_table(problems):
    """folder -> the set of src folders it may include, from layers.txt; its own problems appended."""
    table = {}
    for number, text in data_lines(LAYERS):
        folder, colon, allowed = text.partition(":")
        folder = folder.strip()
        if not colon or not re.fullmatch(r"(src|app)/[\w-]+", folder):
            problems.append(f"{relative(LAYERS)}:{number}: '{text}' is not 'src/<folder>: <folder> <folder>…'")
            continue
        if folder in table:
            problems.append(f"{relative(LAYERS)}:{number}: {folder} has a second row")
        table[folder] = set(allowed.split())
    return table


def check_layers():
    problems = []
    graph = link_graph()
    table = layer_table(problems)
    for folder in graph:
        if folder not in table:
            problems.append(f"{relative(LAYERS)}: {folder} has no row: say which src/ folders it may include")
    for folder, allowed in sorted(table.items()):
        if folder not in graph:
            problems.append(f"{relative(LAYERS)}: {folder} has a row but is no folder with a CMakeLists.txt")
            continue
        reach = link_closure(graph, folder)
        if folder.startswith("src/") and folder[4:] in reach:
            problems.append(f"{folder}/CMakeLists.txt: {folder} links itself through {sorted(reach)}: layers point down only")
        for name in sorted(allowed - reach):
            problems.append(
                f"{relative(LAYERS)}: {folder} may include {name}/, but {folder}/CMakeLists.txt does not link "
                f"keylens_{name}, not even through what it links publicly: the table allows only what the link graph does"
            )
    include = re.compile(r'^\s*#\s*include\s*["<]([\w-]+)/')
    folders = set(src_folders())
    for path in sources("src", "app"):
        home = "/".join(path.split("/")[:2])
        own = path.split("/")[1] if path.startswith("src/") else None
        allowed = table.get(home)
        for number, line in enumerate(read_lines(path), 1):
            match = include.match(line)
            if not match or match.group(1) not in folders or match.group(1) == own:
                continue
            if allowed is None or match.group(1) not in allowed:
                may = " ".join(sorted(allowed)) if allowed else "nothing"
                problems.append(
                    f"{path}:{number}: {line.strip()}: {home} may include only {may} "
                    f"(the layer table, {relative(LAYERS)}; docs/ARCHITECTURE.md, \"Layers\")"
                )
    return problems


# --- sizes ------------------------------------------------------------------------------------------------------


# The map's size table may lag the tree by this much before the test asks for it to be redrawn.
SIZE_TABLE_SLACK = 0.2


def folder_size(folder):
    """(C++ files, lines) of one src/ folder, its sub-folders included."""
    paths = sources(os.path.join("src", folder))
    return len(paths), sum(len(read_lines(path)) for path in paths)


def size_table_rows():
    return [f"| `src/{name}` | {files:,} | {lines:,} |" for name in src_folders() for files, lines in [folder_size(name)]]


def check_size_table(doc):
    """The map's table of folder sizes: every src/ folder, each figure within SIZE_TABLE_SLACK of the tree's."""
    claimed = {}
    for line in doc:
        match = re.match(r"\|\s*`src/([\w-]+)`\s*\|\s*([\d,]+)\s*\|\s*([\d,]+)\s*\|", line)
        if match:
            claimed[match.group(1)] = (int(match.group(2).replace(",", "")), int(match.group(3).replace(",", "")))
    redraw = f"redraw it with `python3 tests/style/house.py size-table`"
    problems = []
    for name in src_folders():
        files, lines = folder_size(name)
        if name not in claimed:
            problems.append(f"src/{name}: not in {ARCHITECTURE}'s size table (\"Sizes\"): {redraw}")
            continue
        for what, real, said in (("files", files, claimed[name][0]), ("lines", lines, claimed[name][1])):
            if abs(real - said) > SIZE_TABLE_SLACK * max(said, 1):
                problems.append(f"src/{name}: {ARCHITECTURE} says {said:,} {what}, the tree has {real:,}: {redraw}")
    return problems


def check_sizes():
    problems = []
    doc = read_lines(ARCHITECTURE)
    for path in sources(*LONG_FILE_FOLDERS):
        if not path.endswith(".cpp"):
            continue
        count = len(read_lines(path))
        if count <= LONG_FILE_LINES:
            continue
        # A line that names the file and says why: a few words besides the name.
        reasons = [line for line in doc if path in line and len(re.findall(r"\w+", line.replace(path, ""))) >= 6]
        if not reasons:
            problems.append(
                f"{path}: {count} lines, over {LONG_FILE_LINES}: split it into classes with one job each, or "
                f"give it a line in {ARCHITECTURE} (\"Sizes\") that names `{path}` and says why it stays whole"
            )
    problems += check_size_table(doc)
    windows = [path for path in sources("src/ui") if re.fullmatch(r"MainWindow\w*\.cpp", os.path.basename(path))]
    total = sum(len(read_lines(path)) for path in windows)
    if total > MAIN_WINDOW_LINES:
        counts = ", ".join(f"{path} {len(read_lines(path))}" for path in windows)
        problems.append(
            f"src/ui/MainWindow.cpp:1: all MainWindow*.cpp together are {total} lines, over {MAIN_WINDOW_LINES} "
            f"({counts}): the window is a shell; move a piece with one job into a class of its own"
        )
    return problems


# --- folders ----------------------------------------------------------------------------------------------------


def check_folders():
    rows = set()
    for line in read_lines(ARCHITECTURE):
        match = re.match(r"\|\s*`src/([\w-]+)/?`\s*\|\s*[^\d\s|]", line)  # a job in words, not the size table
        if match:
            rows.add(match.group(1))
    problems = [
        f"src/{name}: not in {ARCHITECTURE}'s folder table: add a row | `src/{name}` | its one job |"
        for name in src_folders()
        if name not in rows
    ]
    # One map: a second folder table (the README had one) drifts from it.
    for number, line in enumerate(read_lines(README), 1):
        if re.match(r"\|\s*`src/[\w-]+/?`\s*\|", line):
            problems.append(f"README.md:{number}: a folder table row; the map is {ARCHITECTURE}: link it instead")
    return problems


# --- threads ----------------------------------------------------------------------------------------------------

# What starts a thread, or runs a step later on one: each has its one home in src/base, in its five primitives
# (JobRunner and WorkerJob, QueueThread, ServiceThread, SideTask, SlicedJob and NextTurn).
THREAD_PRIMITIVES = [
    ("std::thread", r"\bstd::j?thread\b(?!::)"),
    ("std::async", r"\bstd::async\b"),
    ("pthread_create", r"\bpthread_create\b"),
    ("QThread::create", r"\bQThread::create\b"),
    ("a QThread of one's own", r"\bnew\s+QThread\b|\bpublic\s+QThread\b"),
    ("moveToThread", r"\bmoveToThread\b"),
    ("QThreadPool", r"\bQThreadPool\b"),
    ("QtConcurrent", r"\bQtConcurrent\b"),
    ("a zero-interval timer", r"\bsingleShot\s*\(\s*(0|0ms|std::chrono::\w+\s*[({]\s*0\s*[)}])\s*,"
     r"|\b(start|setInterval)\s*\(\s*(0|0ms)\s*\)"),
    ("a queued invoke or connection", r"\bQt::(Blocking)?QueuedConnection\b"),
]


def thread_exceptions(problems):
    """(path, primitive) -> reason, from threads.txt."""
    known = {name for name, _ in THREAD_PRIMITIVES}
    exceptions = {}
    for number, text in data_lines(THREADS):
        fields = [field.strip() for field in text.split("|")]
        if len(fields) != 3 or not all(fields) or fields[1] not in known:
            problems.append(
                f"{relative(THREADS)}:{number}: '{text}' is not 'path | primitive | why', with a primitive "
                f"one of: {', '.join(sorted(known))}"
            )
            continue
        exceptions[(fields[0], fields[1])] = fields[2]
    return exceptions


def check_threads():
    problems = []
    exceptions = thread_exceptions(problems)
    used = set()
    for path in sources("src", "app"):
        if path.startswith("src/base/"):
            continue
        for number, line in enumerate(read_lines(path), 1):
            for name, pattern in THREAD_PRIMITIVES:
                if not re.search(pattern, line):
                    continue
                if (path, name) in exceptions:
                    used.add((path, name))
                    continue
                problems.append(
                    f"{path}:{number}: {line.strip()}: {name} outside src/base; use a src/base primitive "
                    f"(docs/ARCHITECTURE.md, \"Threads\") or list it in {relative(THREADS)} with the reason"
                )
    for path, name in sorted(set(exceptions) - used):
        problems.append(f"{relative(THREADS)}: {path} | {name} is listed but no longer there: remove the line")
    return problems


CHECKS = {"layers": check_layers, "sizes": check_sizes, "folders": check_folders, "threads": check_threads}


def main(argv):
    if len(argv) == 2 and argv[1] == "size-table":
        print("| folder | C++ files | lines |\n| --- | ---: | ---: |")
        print("\n".join(size_table_rows()))
        return 0
    if len(argv) != 2 or argv[1] not in CHECKS:
        print(f"usage: {argv[0]} {'|'.join(CHECKS)}", file=sys.stderr)
        return 2
    problems = CHECKS[argv[1]]()
    for problem in problems:
        print(problem)
    if problems:
        print(f"{argv[1]}: {len(problems)} problem(s)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
