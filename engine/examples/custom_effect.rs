//! Custom effects: a `CustomEffect` of GLSL 450 vertex and fragment stages, whose uniforms are
//! XNA effect parameters set by name. Two quads share one vertex list; each is drawn after
//! setting its own `World` matrix (it bobs with time) and `Tint`, then `apply`, which copies the
//! parameters into the draws that follow. Escape quits.
//!
//! ```sh
//! cargo run -p xnagraph --features runtime-effects --example custom_effect
//! ```

mod common;

use xnagraph::game::{Game, GameContext, GameTime};
use xnagraph::{
    Color, CustomEffect, Matrix, PassSource, PrimitiveType, RasterizerState, Result,
    TechniqueSource, Vector3, Vector4, VertexPositionColor,
};

/// The vertex stage: its uniform block (set 1) holds the `World` parameter; its inputs are
/// named after the vertex elements they read.
const VERTEX: &str = "#version 450
layout(set = 1, binding = 0) uniform Vertex { mat4 World; };
layout(location = 0) in vec3 Position;
layout(location = 1) in vec4 Color;
layout(location = 0) out vec4 color;
void main() {
    gl_Position = World * vec4(Position, 1.0);
    color = Color;
}
";

/// The fragment stage: its uniform block (set 3) holds `Tint`.
const FRAGMENT: &str = "#version 450
layout(set = 3, binding = 0) uniform Fragment { vec4 Tint; };
layout(location = 0) in vec4 color;
layout(location = 0) out vec4 Out;
void main() { Out = color * Tint; }
";

const BACKGROUND: Color = Color::new(16, 16, 24, 255);
/// Each quad's centre (clip space x) and tint.
const QUADS: [(f32, Vector4); 2] =
    [(-0.5, Vector4::new(1.0, 0.5, 0.0, 1.0)), (0.5, Vector4::new(0.2, 0.6, 1.0, 1.0))];

/// A quad from -0.4 to 0.4 on both axes of clip space, as two triangles.
fn quad() -> Vec<VertexPositionColor> {
    let corner = |x: f32, y: f32| VertexPositionColor {
        position: Vector3::new(x * 0.4, y * 0.4, 0.0),
        color: Color::WHITE,
    };
    vec![
        corner(-1.0, -1.0),
        corner(-1.0, 1.0),
        corner(1.0, 1.0),
        corner(-1.0, -1.0),
        corner(1.0, 1.0),
        corner(1.0, -1.0),
    ]
}

#[derive(Default)]
struct Custom {
    effect: Option<CustomEffect>,
    vertices: Vec<VertexPositionColor>,
    seconds: f32,
}

impl Game for Custom {
    fn load_content(&mut self, ctx: &mut GameContext) -> Result<()> {
        let device = ctx.graphics_device()?;
        let pass = PassSource { name: "Tinted", vertex: VERTEX, fragment: FRAGMENT };
        let technique = TechniqueSource { name: "Main", passes: &[pass] };
        self.effect = Some(CustomEffect::new(device, &[technique])?);
        self.vertices = quad();
        Ok(())
    }

    fn update(&mut self, _ctx: &mut GameContext, time: &GameTime) -> Result<()> {
        self.seconds = time.total_game_time.as_secs_f32();
        Ok(())
    }

    fn draw(&mut self, ctx: &mut GameContext, _time: &GameTime) -> Result<()> {
        let device = ctx.graphics_device()?;
        device.clear(BACKGROUND)?;
        device.set_rasterizer_state(RasterizerState::CULL_NONE)?;
        let effect = self.effect.as_ref().expect("content is loaded");
        for (i, (x, tint)) in QUADS.into_iter().enumerate() {
            let bob = 0.1 * (2.0 * self.seconds + i as f32).sin();
            effect.parameter("World")?.set_value(Matrix::create_translation(x, bob, 0.0))?;
            effect.parameter("Tint")?.set_value(tint)?;
            for pass in effect.current_technique().passes() {
                pass.apply()?;
                device.draw_user_primitives(PrimitiveType::TriangleList, &self.vertices, 0, 2)?;
            }
        }
        Ok(())
    }
}

fn main() -> std::process::ExitCode {
    common::run("xnagraph: custom_effect", Custom::default(), |_, frame| {
        let (w, h) = (frame.width as f32, frame.height as f32);
        for (x, tint) in QUADS {
            // The quad's middle row, a quarter of its width in from its centre: it covers that
            // whatever its bob.
            let px = ((x + 1.0) / 2.0 * w - 0.1 * w) as usize;
            let py = (h / 2.0) as usize;
            let c = |v: f32| (v * 255.0).round() as u8;
            let expected = Color::new(c(tint.x), c(tint.y), c(tint.z), 255);
            frame.expect(px, py, expected, "white vertices times the quad's Tint")?;
        }
        frame.expect(frame.width / 2, 20, BACKGROUND, "the clear colour between the quads")
    })
}
