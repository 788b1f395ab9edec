//! The README's code example is `examples/readme.rs`, verbatim, and it runs: the example a new
//! user copies first is compiled by every build of the tests and its asserted pixels are checked.

mod example {
    include!("../examples/readme.rs");

    #[test]
    fn the_readme_example_runs_and_its_pixels_hold() {
        main().expect("the README example failed");
    }
}

/// The first fenced `rust` block of the README.
fn readme_rust_block(readme: &str) -> Option<&str> {
    let start = readme.find("```rust\n")? + "```rust\n".len();
    let len = readme[start..].find("```\n")?;
    Some(&readme[start..start + len])
}

#[test]
fn the_readme_shows_examples_readme_rs_verbatim() {
    let readme = include_str!("../../README.md");
    let example = include_str!("../examples/readme.rs");
    let block = readme_rust_block(readme).expect("the README has no ```rust block");
    assert_eq!(block, example, "README.md's example and samples/examples/readme.rs differ");
}

mod game_example {
    include!("../examples/game.rs");

    #[test]
    fn the_readme_game_example_runs_headless() {
        main().expect("the README game example failed");
    }
}

#[test]
fn the_readme_shows_examples_game_rs_verbatim() {
    let readme = include_str!("../../README.md");
    let start = readme.find("## Writing a game").expect("the README has no game section");
    let block = readme_rust_block(&readme[start..]).expect("no ```rust block after it");
    assert_eq!(block, include_str!("../examples/game.rs"), "README.md and examples/game.rs differ");
}
