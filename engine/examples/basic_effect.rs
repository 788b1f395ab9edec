//! 3D with `BasicEffect`: a textured cube in vertex and index buffers, lit by XNA's default
//! three-light rig, turning in front of a perspective camera, with a depth buffer. Escape quits.
//!
//! ```sh
//! cargo run -p xnagraph --example basic_effect
//! ```

mod common;

use std::f32::consts::FRAC_PI_4;

use xnagraph::game::{Game, GameContext, GameTime};
use xnagraph::{
    BasicEffect, BufferUsage, Color, DepthStencilState, GraphicsDevice, IndexBuffer,
    IndexElementSize, Matrix, PrimitiveType, Result, SamplerState, Texture2D, Vector2, Vector3,
    VertexBuffer, VertexPositionNormalTexture,
};

const BACKGROUND: Color = Color::new(20, 24, 36, 255);
/// Half the cube's edge.
const HALF: f32 = 0.8;

/// A cube of four vertices per face (each face has its own normal) and two triangles per face,
/// clockwise seen from outside: XNA's default rasterizer culls counter-clockwise triangles.
fn cube() -> (Vec<VertexPositionNormalTexture>, Vec<u16>) {
    let (x, y, z) = (Vector3::UNIT_X, Vector3::UNIT_Y, Vector3::UNIT_Z);
    // Each face: its normal, then its right and up directions seen from outside.
    let faces = [(x, -z, y), (-x, z, y), (y, x, -z), (-y, x, z), (z, x, y), (-z, -x, y)];
    let (mut vertices, mut indices) = (Vec::new(), Vec::new());
    for (normal, right, up) in faces {
        let base = vertices.len() as u16;
        // Bottom left, bottom right, top right, top left.
        for (u, v) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
            vertices.push(VertexPositionNormalTexture {
                position: (normal + right * u + up * v) * HALF,
                normal,
                texture_coordinate: Vector2::new((u + 1.0) / 2.0, (1.0 - v) / 2.0),
            });
        }
        indices.extend([base, base + 2, base + 1, base, base + 3, base + 2]);
    }
    (vertices, indices)
}

/// A `size` × `size` checker of 4 × 4 squares.
fn checker(device: &GraphicsDevice, size: i32) -> Result<Texture2D> {
    let (light, dark) = (Color::new(240, 230, 210, 255), Color::new(200, 80, 50, 255));
    let cell = size / 4;
    let texels: Vec<Color> = (0..size * size)
        .map(|i| if ((i % size) / cell + (i / size) / cell) % 2 == 0 { light } else { dark })
        .collect();
    let texture = Texture2D::new(device, size, size)?;
    texture.set_data(&texels)?;
    Ok(texture)
}

struct Content {
    effect: BasicEffect,
    vertices: VertexBuffer,
    indices: IndexBuffer,
    texture: Texture2D,
}

#[derive(Default)]
struct Cube {
    content: Option<Content>,
    angle: f32,
}

impl Game for Cube {
    fn load_content(&mut self, ctx: &mut GameContext) -> Result<()> {
        let device = ctx.graphics_device()?;
        let (vertex_data, index_data) = cube();
        let count = vertex_data.len() as i32;
        let vertices = VertexBuffer::with_type::<VertexPositionNormalTexture>(
            device,
            count,
            BufferUsage::WriteOnly,
        )?;
        vertices.set_data(&vertex_data)?;
        let count = index_data.len() as i32;
        let sixteen = IndexElementSize::SixteenBits;
        let indices = IndexBuffer::new(device, sixteen, count, BufferUsage::WriteOnly)?;
        indices.set_data(&index_data)?;

        let mut effect = BasicEffect::new(device)?;
        effect.enable_default_lighting();
        effect.prefer_per_pixel_lighting = true;
        effect.texture_enabled = true;
        // The camera: above and in front of the cube, looking at its centre.
        let params = device.presentation_parameters();
        let aspect = params.back_buffer_width as f32 / params.back_buffer_height as f32;
        let eye = Vector3::new(0.0, 2.0, 4.0);
        effect.view = Matrix::create_look_at(eye, Vector3::ZERO, Vector3::UNIT_Y);
        effect.projection =
            Matrix::create_perspective_field_of_view(FRAC_PI_4, aspect, 0.1, 100.0)?;
        let texture = checker(device, 64)?;
        self.content = Some(Content { effect, vertices, indices, texture });
        Ok(())
    }

    fn update(&mut self, _ctx: &mut GameContext, time: &GameTime) -> Result<()> {
        self.angle += 0.8 * time.elapsed_game_time.as_secs_f32(); // radians a second
        Ok(())
    }

    fn draw(&mut self, ctx: &mut GameContext, _time: &GameTime) -> Result<()> {
        let device = ctx.graphics_device()?;
        device.clear(BACKGROUND)?;
        device.set_depth_stencil_state(DepthStencilState::DEFAULT)?;
        device.set_sampler_state(0, SamplerState::LINEAR_WRAP)?;
        let c = self.content.as_mut().expect("content is loaded");
        c.effect.world = Matrix::create_rotation_y(self.angle);
        c.effect.set_texture(Some(&c.texture));
        device.set_vertex_buffer(Some(&c.vertices))?;
        device.set_indices(Some(&c.indices))?;
        for pass in c.effect.current_technique().passes() {
            pass.apply()?;
            device.draw_indexed_primitives(PrimitiveType::TriangleList, 0, 0, 24, 0, 12)?;
        }
        Ok(())
    }
}

fn main() -> std::process::ExitCode {
    common::run("xnagraph: basic_effect", Cube::default(), |_, frame| {
        frame.expect(10, 10, BACKGROUND, "the clear colour, top left")?;
        frame.expect(
            frame.width - 10,
            frame.height - 10,
            BACKGROUND,
            "the clear colour, bottom right",
        )?;
        // Whatever its angle, the cube covers the screen some 100 pixels around the centre;
        // lit, none of it is black.
        let (cx, cy) = (frame.width / 2, frame.height / 2);
        for (x, y) in [(cx - 60, cy - 50), (cx + 60, cy + 40), (cx + 50, cy - 60)] {
            let c = frame.at(x, y).unwrap_or(BACKGROUND);
            if c == BACKGROUND || c.r.max(c.g).max(c.b) < 60 {
                return Err(format!("the lit cube does not show at ({x}, {y}): {c:?}"));
            }
        }
        Ok(())
    })
}
