//! The rules of the breakout game, apart from any drawing or input device: a paddle, a ball,
//! a wall of bricks, score and lives. One [`World::step`] advances the game by a fixed time
//! step, so a run is the same on every machine and in every test.

/// Width of the playfield, in pixels of the scene render target.
pub const FIELD_WIDTH: f32 = 480.0;
/// Height of the playfield, in pixels of the scene render target.
pub const FIELD_HEIGHT: f32 = 360.0;
/// Height of the band at the top that holds the score; bricks start below it.
pub const HUD_HEIGHT: f32 = 28.0;

/// Paddle size, matching `paddle.png`.
pub const PADDLE_SIZE: (f32, f32) = (96.0, 16.0);
/// Distance from the paddle's top edge to the bottom of the field.
const PADDLE_FROM_BOTTOM: f32 = 28.0;
/// Paddle speed under the arrow keys, pixels per second.
const PADDLE_SPEED: f32 = 420.0;

/// Ball diameter, matching `ball.png`.
pub const BALL_SIZE: f32 = 16.0;
/// Ball speed when launched, pixels per second.
const BALL_SPEED: f32 = 300.0;
/// Each brick hit speeds the ball up by this factor, up to [`BALL_MAX_SPEED`].
const BALL_SPEEDUP: f32 = 1.015;
const BALL_MAX_SPEED: f32 = 520.0;

/// Brick size, matching `brick.png`.
pub const BRICK_SIZE: (f32, f32) = (48.0, 20.0);
/// Columns and rows of the wall.
pub const BRICK_COLUMNS: usize = 9;
/// Rows of the wall; each row has its own colour and worth.
pub const BRICK_ROWS: usize = 5;
const BRICK_GAP: f32 = 4.0;
const WALL_TOP: f32 = HUD_HEIGHT + 24.0;

/// Lives at the start of a game.
pub const START_LIVES: u32 = 3;

/// What the player asks for during one step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Controls {
    /// Move the paddle left (held).
    pub left: bool,
    /// Move the paddle right (held).
    pub right: bool,
    /// Launch the ball when it rests on the paddle, or start a new game when one has ended.
    pub launch: bool,
    /// Put the paddle's centre here (the mouse), in field pixels; wins over the keys.
    pub pointer_x: Option<f32>,
}

/// One brick of the wall.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Brick {
    /// Left edge.
    pub x: f32,
    /// Top edge.
    pub y: f32,
    /// Row from the top (0..BRICK_ROWS): its colour and worth.
    pub row: usize,
    /// Still standing.
    pub alive: bool,
}

impl Brick {
    /// Points for knocking this brick out: the top rows are worth more.
    pub fn points(&self) -> u32 {
        10 * (BRICK_ROWS - self.row) as u32
    }
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The ball rests on the paddle until the player launches it.
    Serving,
    /// The ball is in play.
    Playing,
    /// Every brick is gone.
    Won,
    /// No lives left.
    Lost,
}

/// What happened during one step, for sound or flashes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StepEvents {
    /// Bricks knocked out.
    pub bricks: u32,
    /// The ball fell past the paddle.
    pub lost_ball: bool,
}

/// The whole game state.
#[derive(Clone, Debug, PartialEq)]
pub struct World {
    /// Left edge of the paddle.
    pub paddle_x: f32,
    /// Top-left corner of the ball.
    pub ball: (f32, f32),
    /// Ball velocity, pixels per second.
    pub velocity: (f32, f32),
    /// The wall, row by row.
    pub bricks: Vec<Brick>,
    /// Points so far.
    pub score: u32,
    /// Balls left, the one in play included.
    pub lives: u32,
    /// Where the game stands.
    pub phase: Phase,
    /// Serves so far: alternates the launch direction.
    serves: u32,
}

impl Default for World {
    fn default() -> Self {
        Self::new()
    }
}

impl World {
    /// A new game: full wall, the ball on the paddle, [`START_LIVES`] lives.
    pub fn new() -> Self {
        let wall_width = BRICK_COLUMNS as f32 * (BRICK_SIZE.0 + BRICK_GAP) - BRICK_GAP;
        let left = (FIELD_WIDTH - wall_width) / 2.0;
        let bricks = (0..BRICK_ROWS)
            .flat_map(|row| {
                (0..BRICK_COLUMNS).map(move |column| Brick {
                    x: left + column as f32 * (BRICK_SIZE.0 + BRICK_GAP),
                    y: WALL_TOP + row as f32 * (BRICK_SIZE.1 + BRICK_GAP),
                    row,
                    alive: true,
                })
            })
            .collect();
        let mut world = World {
            paddle_x: (FIELD_WIDTH - PADDLE_SIZE.0) / 2.0,
            ball: (0.0, 0.0),
            velocity: (0.0, 0.0),
            bricks,
            score: 0,
            lives: START_LIVES,
            phase: Phase::Serving,
            serves: 0,
        };
        world.rest_ball_on_paddle();
        world
    }

    /// Top edge of the paddle.
    pub fn paddle_y() -> f32 {
        FIELD_HEIGHT - PADDLE_FROM_BOTTOM
    }

    /// Bricks still standing.
    pub fn bricks_left(&self) -> usize {
        self.bricks.iter().filter(|b| b.alive).count()
    }

    fn rest_ball_on_paddle(&mut self) {
        self.ball =
            (self.paddle_x + (PADDLE_SIZE.0 - BALL_SIZE) / 2.0, Self::paddle_y() - BALL_SIZE);
        self.velocity = (0.0, 0.0);
    }

    /// Advances the game by `dt` seconds under `controls`.
    pub fn step(&mut self, dt: f32, controls: &Controls) -> StepEvents {
        let mut events = StepEvents::default();
        match self.phase {
            Phase::Won | Phase::Lost => {
                if controls.launch {
                    *self = World::new();
                }
                return events;
            }
            Phase::Serving | Phase::Playing => {}
        }
        self.move_paddle(dt, controls);
        if self.phase == Phase::Serving {
            self.rest_ball_on_paddle();
            if controls.launch {
                let side = if self.serves & 1 == 0 { 1.0 } else { -1.0 };
                self.serves += 1;
                self.velocity = (side * BALL_SPEED * 0.6, -BALL_SPEED * 0.8);
                self.phase = Phase::Playing;
            }
            return events;
        }
        // Sub-steps keep the ball from tunnelling through a brick at top speed.
        let substeps = 4;
        let h = dt / substeps as f32;
        for _ in 0..substeps {
            self.advance_ball(h, &mut events);
            if self.phase != Phase::Playing {
                break;
            }
        }
        events
    }

    fn move_paddle(&mut self, dt: f32, controls: &Controls) {
        let max = FIELD_WIDTH - PADDLE_SIZE.0;
        self.paddle_x = match controls.pointer_x {
            Some(x) => x - PADDLE_SIZE.0 / 2.0,
            None => {
                let dir = controls.right as i32 - controls.left as i32;
                self.paddle_x + dir as f32 * PADDLE_SPEED * dt
            }
        }
        .clamp(0.0, max);
    }

    fn advance_ball(&mut self, h: f32, events: &mut StepEvents) {
        let (mut x, mut y) = (self.ball.0 + self.velocity.0 * h, self.ball.1 + self.velocity.1 * h);
        let (mut vx, mut vy) = self.velocity;
        if x < 0.0 {
            x = -x;
            vx = vx.abs();
        }
        if x > FIELD_WIDTH - BALL_SIZE {
            x = 2.0 * (FIELD_WIDTH - BALL_SIZE) - x;
            vx = -vx.abs();
        }
        if y < HUD_HEIGHT {
            y = 2.0 * HUD_HEIGHT - y;
            vy = vy.abs();
        }
        // The paddle: the bounce angle follows where the ball meets it.
        let paddle_y = Self::paddle_y();
        if vy > 0.0
            && y + BALL_SIZE >= paddle_y
            && self.ball.1 + BALL_SIZE <= paddle_y + 1.0
            && x + BALL_SIZE > self.paddle_x
            && x < self.paddle_x + PADDLE_SIZE.0
        {
            let speed = (vx * vx + vy * vy).sqrt();
            let offset = ((x + BALL_SIZE / 2.0) - (self.paddle_x + PADDLE_SIZE.0 / 2.0))
                / (PADDLE_SIZE.0 / 2.0);
            // Up to one radian (about 57 degrees) off vertical at the paddle's ends.
            let angle = offset.clamp(-1.0, 1.0);
            vx = speed * angle.sin();
            vy = -speed * angle.cos();
            y = paddle_y - BALL_SIZE;
        }
        // Bricks: the first one the ball overlaps, reflected on the axis of least overlap.
        if let Some(brick) = self.bricks.iter_mut().find(|b| {
            b.alive
                && x < b.x + BRICK_SIZE.0
                && x + BALL_SIZE > b.x
                && y < b.y + BRICK_SIZE.1
                && y + BALL_SIZE > b.y
        }) {
            brick.alive = false;
            self.score += brick.points();
            events.bricks += 1;
            let overlap_x = (x + BALL_SIZE - brick.x).min(brick.x + BRICK_SIZE.0 - x);
            let overlap_y = (y + BALL_SIZE - brick.y).min(brick.y + BRICK_SIZE.1 - y);
            if overlap_x < overlap_y {
                vx = -vx;
            } else {
                vy = -vy;
            }
            let speed = (vx * vx + vy * vy).sqrt();
            let faster = (speed * BALL_SPEEDUP).min(BALL_MAX_SPEED) / speed;
            vx *= faster;
            vy *= faster;
            if self.bricks_left() == 0 {
                self.phase = Phase::Won;
            }
        }
        self.ball = (x, y);
        self.velocity = (vx, vy);
        if y > FIELD_HEIGHT {
            events.lost_ball = true;
            self.lives -= 1;
            if self.lives == 0 {
                self.phase = Phase::Lost;
            } else {
                self.phase = Phase::Serving;
                self.rest_ball_on_paddle();
            }
        }
    }

    /// Controls that play the game on their own: the paddle follows the ball, aiming a little
    /// to one side so the ball travels across the wall, and serves at once. For demos and
    /// headless runs.
    pub fn autopilot(&self) -> Controls {
        let aim = if (self.score / 10) & 1 == 0 { 0.3 } else { -0.3 };
        let ball_centre = self.ball.0 + BALL_SIZE / 2.0;
        Controls {
            pointer_x: Some(ball_centre - aim * PADDLE_SIZE.0 / 2.0),
            launch: true,
            ..Controls::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DT: f32 = 1.0 / 60.0;

    #[test]
    fn a_new_game_has_a_full_wall_inside_the_field() {
        let world = World::new();
        assert_eq!(world.bricks_left(), BRICK_COLUMNS * BRICK_ROWS);
        for b in &world.bricks {
            assert!(b.x >= 0.0 && b.x + BRICK_SIZE.0 <= FIELD_WIDTH, "{b:?}");
            assert!(b.y >= HUD_HEIGHT && b.y + BRICK_SIZE.1 < World::paddle_y(), "{b:?}");
        }
        assert_eq!(world.phase, Phase::Serving);
    }

    #[test]
    fn the_ball_rides_the_paddle_until_launched() {
        let mut world = World::new();
        world.step(DT, &Controls { right: true, ..Controls::default() });
        assert!(world.paddle_x > (FIELD_WIDTH - PADDLE_SIZE.0) / 2.0);
        assert_eq!(world.ball.0, world.paddle_x + (PADDLE_SIZE.0 - BALL_SIZE) / 2.0);
        world.step(DT, &Controls { launch: true, ..Controls::default() });
        assert_eq!(world.phase, Phase::Playing);
        let before = world.ball;
        world.step(DT, &Controls::default());
        assert!(world.ball.1 < before.1, "launched upwards");
    }

    #[test]
    fn the_paddle_stays_inside_the_field() {
        let mut world = World::new();
        for _ in 0..200 {
            world.step(DT, &Controls { left: true, ..Controls::default() });
        }
        assert_eq!(world.paddle_x, 0.0);
        world.step(DT, &Controls { pointer_x: Some(10_000.0), ..Controls::default() });
        assert_eq!(world.paddle_x, FIELD_WIDTH - PADDLE_SIZE.0);
    }

    #[test]
    fn hitting_a_brick_scores_its_row_and_reverses_the_ball() {
        let mut world = World::new();
        let target = world.bricks[BRICK_COLUMNS * (BRICK_ROWS - 1) + 4];
        world.phase = Phase::Playing;
        world.ball = (target.x + 16.0, target.y + BRICK_SIZE.1 + 1.0);
        world.velocity = (0.0, -300.0);
        let events = world.step(DT, &Controls::default());
        assert_eq!(events.bricks, 1);
        assert_eq!(world.score, target.points());
        assert_eq!(target.points(), 10, "the bottom row is worth least");
        assert!(world.velocity.1 > 0.0, "bounced down");
        assert_eq!(world.bricks_left(), BRICK_COLUMNS * BRICK_ROWS - 1);
    }

    #[test]
    fn missing_the_ball_costs_a_life_and_the_last_ends_the_game() {
        let mut world = World::new();
        for life in (0..START_LIVES).rev() {
            world.phase = Phase::Playing;
            world.ball = (0.0, FIELD_HEIGHT - 2.0);
            world.velocity = (0.0, 300.0);
            let events =
                world.step(DT, &Controls { pointer_x: Some(400.0), ..Controls::default() });
            assert!(events.lost_ball);
            assert_eq!(world.lives, life);
        }
        assert_eq!(world.phase, Phase::Lost);
        world.step(DT, &Controls { launch: true, ..Controls::default() });
        assert_eq!(world, World::new(), "launch after the end starts again");
    }

    #[test]
    fn the_autopilot_clears_bricks_without_losing_a_ball() {
        let mut world = World::new();
        for _ in 0..60 * 60 {
            let controls = world.autopilot();
            world.step(DT, &controls);
        }
        assert_eq!(world.lives, START_LIVES, "{world:?}");
        assert!(world.score >= 100, "score {}", world.score);
    }
}
