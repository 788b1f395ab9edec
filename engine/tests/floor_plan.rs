//! The engine's floor plan (the map in `src/lib.rs`) holds: a folder calls only the folders below
//! it, and no source file imports a file that imports it back.
//!
//! The source is read as text: a file's imports are the paths it names through `crate::`,
//! `super::` and `self::`, and, in a folder's `mod.rs`, through a child module's name. A path
//! names the deepest module file it reaches. `#[cfg(test)] mod tests` blocks are left out: a
//! unit test may reach anywhere. A module and its own child modules are one unit (the parent
//! declares and dispatches to its children, which see its private items, as Rust intends), so
//! imports between a file and its direct parent are not counted.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The folders from the top of the floor plan to the bottom; files at the root of `src/` are
/// below every folder.
const LAYERS: [&[&str]; 7] = [
    &["game"],
    &["content"],
    &["models"],
    &["sprites", "draw"],
    &["effects"],
    &["resources"],
    &["device"],
];

type Module = Vec<String>;

/// Every module file under `src`, by module path (`device/mod.rs` is `["device"]`).
fn modules(src: &Path) -> BTreeMap<Module, PathBuf> {
    fn walk(dir: &Path, src: &Path, out: &mut BTreeMap<Module, PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, src, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let relative = path.strip_prefix(src).unwrap().with_extension("");
                let mut module: Module =
                    relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
                if matches!(module.last().map(String::as_str), Some("mod" | "lib")) {
                    module.pop();
                }
                if module.last().is_some_and(|m| m == "tests") {
                    continue;
                }
                out.insert(module, path);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(src, src, &mut out);
    out
}

/// `text` without its unit tests and line comments.
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests {") {
        Some(at) => &text[..at],
        None => text,
    };
    text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// The identifiers of each `::`-joined path in `text` that starts with `head` (`crate`,
/// `super`, `self`, or a child module), with the segments of a `{...}` group that follows.
fn paths_from(text: &str, head: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(found) = text[from..].find(&format!("{head}::")) {
        let at = from + found;
        from = at + head.len() + 2;
        let boundary = at == 0 || !(bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_');
        if !boundary || (at >= 2 && &text[at - 2..at] == "::") {
            continue;
        }
        let rest = &text[from..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(rest.len());
        let segments: Vec<String> =
            rest[..end].split("::").filter(|s| !s.is_empty()).map(str::to_owned).collect();
        if rest[end..].starts_with('{') {
            let group = &rest[end + 1..rest[end..].find('}').map_or(rest.len(), |c| end + c)];
            for item in group.split(',') {
                let item: Vec<String> = item
                    .trim()
                    .split("::")
                    .map(|s| s.trim().to_owned())
                    .filter(|s| !s.is_empty() && s != "self" && !s.contains(' '))
                    .collect();
                out.push(segments.iter().cloned().chain(item).collect());
            }
        }
        out.push(segments);
    }
    out
}

/// The module files each module file imports.
fn imports(src: &Path) -> BTreeMap<Module, Vec<Module>> {
    let modules = modules(src);
    let resolve = |mut path: Module| {
        while !path.is_empty() && !modules.contains_key(&path) {
            path.pop();
        }
        path
    };
    let mut edges = BTreeMap::new();
    for (module, file) in &modules {
        let text = code(&std::fs::read_to_string(file).unwrap());
        let folder = file.file_name().is_some_and(|n| n == "mod.rs" || n == "lib.rs");
        let parent: Module = module[..module.len().saturating_sub(1)].to_vec();
        let mut targets = Vec::new();
        for path in paths_from(&text, "crate") {
            targets.push(resolve(path));
        }
        for path in paths_from(&text, "super") {
            let mut base = parent.clone();
            let mut path = path.into_iter().peekable();
            while path.peek().is_some_and(|s| s == "super") {
                path.next();
                base.pop();
            }
            targets.push(resolve(base.into_iter().chain(path).collect()));
        }
        for path in paths_from(&text, "self") {
            targets.push(resolve(module.iter().cloned().chain(path).collect()));
        }
        if folder {
            for child in modules.keys().filter(|m| m.len() == module.len() + 1) {
                if !child.starts_with(module) {
                    continue;
                }
                let name = child.last().unwrap();
                for path in paths_from(&text, name) {
                    targets.push(resolve(child.iter().cloned().chain(path).collect()));
                }
            }
        }
        // A module's own parent or child is part of the same unit (see the module doc).
        let related = |t: &Module| {
            t.len() + 1 == module.len() && module.starts_with(t)
                || module.len() + 1 == t.len() && t.starts_with(module)
        };
        targets.retain(|t| !t.is_empty() && t != module && !related(t));
        targets.sort();
        targets.dedup();
        edges.insert(module.clone(), targets);
    }
    edges
}

/// A chain of imports that leads from a module back to it, if any.
fn cycle(edges: &BTreeMap<Module, Vec<Module>>) -> Option<Vec<Module>> {
    fn visit(
        at: &Module,
        edges: &BTreeMap<Module, Vec<Module>>,
        done: &mut Vec<Module>,
        stack: &mut Vec<Module>,
    ) -> Option<Vec<Module>> {
        if let Some(start) = stack.iter().position(|m| m == at) {
            return Some(stack[start..].iter().cloned().chain([at.clone()]).collect());
        }
        if done.contains(at) {
            return None;
        }
        stack.push(at.clone());
        for next in edges.get(at).into_iter().flatten() {
            if let Some(found) = visit(next, edges, done, stack) {
                return Some(found);
            }
        }
        stack.pop();
        done.push(at.clone());
        None
    }
    let mut done = Vec::new();
    edges.keys().find_map(|m| visit(m, edges, &mut done, &mut Vec::new()))
}

/// The floor-plan layer of a module: its folder's place in [`LAYERS`], or below them all.
fn layer(module: &Module, edges: &BTreeMap<Module, Vec<Module>>) -> usize {
    let folder = match module.first() {
        // A file at the root of src/, or lib.rs: no folder.
        Some(first) if module.len() > 1 || edges.keys().any(|m| m.len() > 1 && m[0] == *first) => {
            first.as_str()
        }
        _ => return LAYERS.len(),
    };
    LAYERS.iter().position(|l| l.contains(&folder)).unwrap_or_else(|| {
        panic!("the folder src/{folder} is not in the floor plan of tests/floor_plan.rs")
    })
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn no_source_file_imports_a_file_that_imports_it_back() {
    let edges = imports(&src());
    assert!(edges.len() > 40, "the engine's source was not found ({} files)", edges.len());
    if let Some(chain) = cycle(&edges) {
        let names: Vec<String> = chain.iter().map(|m| m.join("/")).collect();
        panic!("an import cycle: {}", names.join(" -> "));
    }
}

#[test]
fn a_folder_calls_only_the_folders_below_it() {
    let edges = imports(&src());
    let mut upward = Vec::new();
    for (from, targets) in &edges {
        if from.is_empty() {
            continue; // lib.rs declares and re-exports everything
        }
        for to in targets {
            if layer(to, &edges) < layer(from, &edges) {
                upward.push(format!("{} -> {}", from.join("/"), to.join("/")));
            }
        }
    }
    assert!(upward.is_empty(), "imports up the floor plan: {upward:#?}");
}

#[test]
fn the_reader_sees_imports_of_every_kind() {
    let text = "use crate::device::shared::{DeviceShared, Recording};\n\
                use super::hook::Active;\nfn f() { self::x::y(); child::Z }";
    assert_eq!(
        paths_from(text, "crate"),
        vec![
            vec!["device", "shared", "DeviceShared"],
            vec!["device", "shared", "Recording"],
            vec!["device", "shared"]
        ]
    );
    assert_eq!(paths_from(text, "super"), vec![vec!["hook", "Active"]]);
    assert_eq!(paths_from(text, "self"), vec![vec!["x", "y"]]);
    assert_eq!(paths_from(text, "child"), vec![vec!["Z"]]);
    let mut edges = BTreeMap::new();
    let (a, b): (Module, Module) = (vec!["a".into()], vec!["b".into()]);
    edges.insert(a.clone(), vec![b.clone()]);
    edges.insert(b.clone(), vec![a.clone()]);
    assert_eq!(cycle(&edges), Some(vec![a.clone(), b, a]));
}
