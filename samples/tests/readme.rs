//! The README's quick-start game is `examples/readme.rs`, verbatim, and it runs: the code a new
//! user copies first is compiled by every build of the tests, played headless and its pixels
//! checked.

#[allow(dead_code)] // Its `main` opens a window; the test runs the game headless.
mod example {
    include!("../examples/readme.rs");

    use xnagraph::game::InputEvent;

    /// The README's game, and what its last draw left in the back buffer.
    #[derive(Default)]
    struct Watched {
        game: Hello,
        frame: Vec<Color>,
        ball: Vec<Color>,
    }

    impl Game for Watched {
        fn load_content(&mut self, ctx: &mut GameContext) -> Result<()> {
            self.game.load_content(ctx)
        }

        fn update(&mut self, ctx: &mut GameContext, time: &GameTime) -> Result<()> {
            self.game.update(ctx, time)
        }

        fn draw(&mut self, ctx: &mut GameContext, time: &GameTime) -> Result<()> {
            self.game.draw(ctx, time)?;
            let device = ctx.graphics_device()?;
            let size = device.presentation_parameters();
            let count = (size.back_buffer_width * size.back_buffer_height) as usize;
            self.frame = vec![Color::TRANSPARENT; count];
            // The ball's texels, as the game loaded them (premultiplied).
            self.ball = vec![Color::TRANSPARENT; 16 * 16];
            self.game.content.as_ref().unwrap().0.get_data(&mut self.ball)?;
            device.get_back_buffer_data(None, &mut self.frame, 0, count)
        }
    }

    #[test]
    fn the_readme_game_moves_its_ball_with_the_keys_and_draws_it_and_its_text() {
        let mut ctx = GameContext::new();
        let mut watched = Watched::default();
        // Right held from the eighth frame on: the last 3 of the 10 updates move the ball right,
        // 200 pixels a second for 1/60 s each: 10 pixels.
        ctx.run_headless(&mut watched, 10, |frame, input| {
            if frame == 7 {
                input.push(InputEvent::KeyDown(Keys::Right));
            }
        })
        .expect("the README game runs headless");
        let moved = watched.game.position.x - 150.0;
        let expected = 10.0;
        assert!((moved - expected).abs() < 1e-3, "moved {moved}, expected {expected}");
        assert_eq!(watched.game.position.y, 100.0);

        let at = |x: usize, y: usize| watched.frame[y * 800 + x];
        // The ball is drawn at its position, rounded to the pixel grid: its centre texel where
        // that is opaque, the clear colour far from it and from the text.
        let (bx, by) = (watched.game.position.x.round() as usize, 100);
        let centre = watched.ball[8 * 16 + 8];
        assert_eq!(centre.a, 255, "the ball's centre is opaque");
        assert_eq!(at(bx + 8, by + 8), centre, "the ball's centre");
        assert_eq!(at(600, 400), Color::CORNFLOWER_BLUE, "the clear colour");
        // The text: white glyph pixels on the first line, right of x = 10.
        let line = (10..35).flat_map(|y| (10..250).map(move |x| (x, y)));
        assert!(line.into_iter().any(|(x, y)| at(x, y) == Color::WHITE), "text is drawn");
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

mod headless_example {
    include!("../examples/headless.rs");

    #[test]
    fn the_headless_example_runs_and_its_pixels_hold() {
        main().expect("the headless example failed");
    }
}

mod game_example {
    include!("../examples/game.rs");

    #[test]
    fn the_paddle_game_example_runs_headless() {
        main().expect("the paddle game example failed");
    }
}
