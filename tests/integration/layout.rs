//! The shape of the code base, kept by a test so that it stays as documented in the README:
//! no cycles between the top-level modules of either crate, no source file over
//! [`MAX_FILE_LINES`] lines outside tests, no function over [`MAX_CORE_FN_LINES`] lines in the
//! core. The checks read the sources as text (comments skipped); they are a short script, not a
//! parser, and say which file and line broke a rule.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const MAX_FILE_LINES: usize = 700;
const MAX_CORE_FN_LINES: usize = 80;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file below `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d)
            .expect("readable source folder")
            .flatten()
        {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The lines of a file before its unit-test module, without comment lines.
fn code_lines(text: &str) -> Vec<&str> {
    let lines: Vec<&str> = text.lines().collect();
    let end = (0..lines.len())
        .find(|&i| {
            lines[i].trim() == "#[cfg(test)]"
                && lines
                    .get(i + 1)
                    .is_some_and(|n| n.trim_start().starts_with("mod tests"))
        })
        .unwrap_or(lines.len());
    lines[..end]
        .iter()
        .copied()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect()
}

/// The top-level module a file of `src` belongs to (`content/select/mod.rs` → `content`).
fn top_module(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).ok()?;
    let first = rel.components().next()?.as_os_str().to_str()?;
    let name = first.trim_end_matches(".rs");
    (!matches!(name, "lib" | "main")).then(|| name.to_owned())
}

/// Names the crate root re-exports (`pub use options::{AnalysisOptions, TextOptions};`), by
/// the module they come from, so that `crate::AnalysisOptions` counts as a use of `options`.
fn root_exports(lib: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let joined = lib.replace('\n', " ");
    for stmt in joined.split(';') {
        let Some(rest) = stmt.trim().strip_prefix("pub use ") else {
            continue;
        };
        let Some((module, names)) = rest.split_once("::") else {
            continue;
        };
        for name in names.split(|c: char| !c.is_alphanumeric() && c != '_') {
            if !name.is_empty() {
                out.insert(name.to_owned(), module.trim().to_owned());
            }
        }
    }
    out
}

/// Module → the top-level modules it refers to with `crate::…`.
fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap_or_default();
    let exports = root_exports(&lib);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in rust_files(src) {
        let Some(module) = top_module(src, &file) else {
            continue;
        };
        let text = std::fs::read_to_string(&file).expect("readable source file");
        let deps = graph.entry(module.clone()).or_default();
        for line in code_lines(&text) {
            let mut rest = line;
            while let Some(at) = rest.find("crate::") {
                rest = &rest[at + "crate::".len()..];
                let names: Vec<&str> = if let Some(group) = rest.strip_prefix('{') {
                    let end = group.find('}').unwrap_or(group.len());
                    group[..end].split(',').map(str::trim).collect()
                } else {
                    vec![rest]
                };
                for n in names {
                    let first: String = n
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    let target = exports.get(&first).cloned().unwrap_or(first);
                    if !target.is_empty() && target != module {
                        deps.insert(target);
                    }
                }
            }
        }
    }
    graph
}

/// A cycle in the graph, as the modules along it, if there is one.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        n: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match state.get(n) {
            Some(2) => return None,
            Some(1) => {
                let start = path.iter().position(|p| p == n).unwrap_or(0);
                let mut cycle = path[start..].to_vec();
                cycle.push(n.to_owned());
                return Some(cycle);
            }
            _ => {}
        }
        state.insert(n.to_owned(), 1);
        path.push(n.to_owned());
        for d in graph.get(n).into_iter().flatten() {
            if let Some(c) = visit(d, graph, state, path) {
                return Some(c);
            }
        }
        path.pop();
        state.insert(n.to_owned(), 2);
        None
    }
    let mut state = BTreeMap::new();
    graph
        .keys()
        .find_map(|n| visit(n, graph, &mut state, &mut Vec::new()))
}

#[test]
fn no_cycles_between_top_level_modules() {
    for src in [root().join("crates/tcx-core/src"), root().join("src")] {
        let graph = module_graph(&src);
        assert!(graph.len() >= 5, "modules of {}: {graph:?}", src.display());
        assert_eq!(find_cycle(&graph), None, "{}: {graph:#?}", src.display());
    }
    // The model is the bottom of the core: every stage writes into it, it reads none.
    let core = module_graph(&root().join("crates/tcx-core/src"));
    assert_eq!(core.get("model"), Some(&BTreeSet::new()), "{core:#?}");
}

#[test]
fn the_cycle_finder_finds_cycles() {
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    g.entry("a".into()).or_default().insert("b".into());
    g.entry("b".into()).or_default().insert("c".into());
    g.entry("c".into()).or_default();
    assert_eq!(find_cycle(&g), None);
    g.entry("c".into()).or_default().insert("a".into());
    assert_eq!(
        find_cycle(&g),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
}

#[test]
fn no_source_file_over_the_line_limit() {
    let mut long = Vec::new();
    for src in [root().join("crates/tcx-core/src"), root().join("src")] {
        for file in rust_files(&src) {
            if file.file_name().is_some_and(|n| n == "tests.rs") {
                continue;
            }
            let n = std::fs::read_to_string(&file).unwrap().lines().count();
            if n > MAX_FILE_LINES {
                long.push(format!("{}: {n} lines", file.display()));
            }
        }
    }
    assert!(long.is_empty(), "{long:#?}");
}

/// `(name, first line, length)` of every function outside unit tests, by brace counting.
fn functions(text: &str) -> Vec<(String, usize, usize)> {
    let lines = code_lines(text);
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i].trim_start();
        let l = l
            .trim_start_matches("pub(crate) ")
            .trim_start_matches("pub(super) ")
            .trim_start_matches("pub ")
            .trim_start_matches("const ")
            .trim_start_matches("async ");
        let Some(rest) = l.strip_prefix("fn ") else {
            i += 1;
            continue;
        };
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let (mut depth, mut started, mut j) = (0i32, false, i);
        while j < lines.len() {
            for c in lines[j].chars() {
                match c {
                    '{' => {
                        depth += 1;
                        started = true;
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            if (started && depth <= 0) || (!started && lines[j].trim_end().ends_with(';')) {
                break;
            }
            j += 1;
        }
        out.push((name, i + 1, j - i + 1));
        i = if started { j + 1 } else { i + 1 };
    }
    out
}

#[test]
fn no_core_function_over_the_line_limit() {
    let mut long = Vec::new();
    for file in rust_files(&root().join("crates/tcx-core/src")) {
        if file.file_name().is_some_and(|n| n == "tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        for (name, line, len) in functions(&text) {
            if len > MAX_CORE_FN_LINES {
                long.push(format!("{}:{line} {name}: {len} lines", file.display()));
            }
        }
    }
    assert!(long.is_empty(), "{long:#?}");
    let sample = "fn a() {\n    let x = 1;\n}\n\nfn b() -> u8 {\n    if true {\n        1\n    } else {\n        2\n    }\n}\n";
    assert_eq!(
        functions(sample),
        [("a".to_owned(), 1, 3), ("b".to_owned(), 5, 7)]
    );
}
