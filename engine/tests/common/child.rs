//! Tests of a process-wide switch (an environment variable the engine reads) run their body in a
//! child process of the same test binary, with the variable set for the child alone: a test
//! never changes the environment of the process its neighbours run in, under `cargo test`
//! (every test of a binary in one process, on many threads) and nextest alike.
//!
//! Shared by the engine's and the benches' tests (the benches include this file by path).

use std::process::Command;

/// Set in the child to the name of the test it runs.
const CHILD: &str = "XNAGRAPH_TEST_CHILD";

/// Runs the test `name` in a child process of this test binary with `vars` set there, and fails
/// if the child fails, printing its output. Returns true in the child, where the caller then
/// runs the test's body; false in the parent, which has nothing more to do.
pub fn in_child(name: &str, vars: &[(&str, &str)]) -> bool {
    if std::env::var_os(CHILD).is_some_and(|n| n == name) {
        return true;
    }
    let exe = std::env::current_exe().expect("the test binary's path");
    let out = Command::new(exe)
        .args([name, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD, name)
        .envs(vars.iter().copied())
        .output()
        .expect("the test binary runs again as a child");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{name} failed in its child process ({}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    // The child ran exactly this test: a filter that matched nothing would also succeed.
    assert!(stdout.contains("1 passed"), "{name}'s child ran no test:\n{stdout}");
    false
}
