//! The 3D sample: a lit, textured sphere and cube (generated geometry, [`mesh`]) drawn with
//! `BasicEffect` (XNA's default three-light rig, per-pixel lighting, a checker texture) into a
//! multisampled render target with depth, then composited into the back buffer with
//! `SpriteBatch`, under a `SpriteFont` HUD line. The same [`Model3d`] runs in a window and
//! headless (`GameContext::run_headless`) for tests.
//!
//! The scene target asks for [`REQUESTED_SAMPLES`] samples, clamped to what the device supports
//! (`Capabilities::clamp_sample_count`; lavapipe offers 1 and 4); the compiler resolves it
//! before the composite samples it.

pub mod gltf_assets;
pub mod mesh;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use xnagraph::game::{Game, GameContext, GameTime};
use xnagraph::{
    BasicEffect, BlendState, BufferUsage, Color, DepthFormat, DepthStencilState, FontOptions,
    GraphicsDevice, IndexBuffer, IndexElementSize, MathHelper, Matrix, PrimitiveType, Rectangle,
    RenderTarget2D, RenderTargetUsage, SamplerState, SpriteBatch, SpriteFont, SpriteSortMode,
    SurfaceFormat, Texture2D, Vector2, Vector3, VertexBuffer, VertexPositionNormalTexture,
    Viewport,
};

use mesh::Mesh;

/// The back buffer around the scene and behind the HUD.
pub const BACKGROUND: Color = Color::new(24, 28, 40, 255);
/// The scene target's clear colour.
pub const SCENE_CLEAR: Color = Color::new(60, 72, 96, 255);
/// The HUD text colour.
pub const HUD_COLOR: Color = Color::new(255, 240, 200, 255);
/// The HUD line's top-left corner in the back buffer.
pub const HUD_POSITION: Vector2 = Vector2::new(12.0, 8.0);
/// Samples the scene target asks for.
pub const REQUESTED_SAMPLES: i32 = 4;
/// Where the sphere sits in the world.
pub const SPHERE_CENTER: Vector3 = Vector3::new(-0.9, 0.0, 0.0);
/// The sphere's radius.
pub const SPHERE_RADIUS: f32 = 1.0;

/// Where the scene lands in a back buffer of `width` × `height`: below the HUD line, with a
/// margin of background on the other sides.
pub fn scene_rect(width: i32, height: i32) -> Rectangle {
    Rectangle::new(16, 40, (width - 32).max(1), (height - 56).max(1))
}

/// The camera of a scene of `width` × `height` pixels: (view, projection).
pub fn camera(width: i32, height: i32) -> xnagraph::Result<(Matrix, Matrix)> {
    let view = Matrix::create_look_at(Vector3::new(0.0, 1.2, 5.0), Vector3::ZERO, Vector3::UNIT_Y);
    let aspect = Viewport::new(0, 0, width, height).aspect_ratio();
    let projection =
        Matrix::create_perspective_field_of_view(MathHelper::PI_OVER_4, aspect, 0.5, 50.0)?;
    Ok((view, projection))
}

/// The scene pixel where world point `p` lands (in a scene of `width` × `height`):
/// `Viewport.Project`, truncated to whole pixels.
pub fn project(p: Vector3, width: i32, height: i32) -> xnagraph::Result<(i32, i32)> {
    let (view, projection) = camera(width, height)?;
    let s = Viewport::new(0, 0, width, height).project(p, &projection, &view, &Matrix::IDENTITY);
    Ok((s.x as i32, s.y as i32))
}

/// The HUD line.
pub fn hud_text(samples: i32) -> String {
    format!("xnagraph model3d - BasicEffect, {samples}x MSAA")
}

struct Model {
    vertices: VertexBuffer,
    indices: IndexBuffer,
    triangles: i32,
    vertex_count: i32,
}

impl Model {
    fn new(device: &GraphicsDevice, mesh: &Mesh) -> xnagraph::Result<Model> {
        let vertices = VertexBuffer::with_type::<VertexPositionNormalTexture>(
            device,
            mesh.vertices.len() as i32,
            BufferUsage::WriteOnly,
        )?;
        vertices.set_data(&mesh.vertices)?;
        let indices = IndexBuffer::new(
            device,
            IndexElementSize::SixteenBits,
            mesh.indices.len() as i32,
            BufferUsage::WriteOnly,
        )?;
        indices.set_data(&mesh.indices)?;
        Ok(Model {
            vertices,
            indices,
            triangles: mesh.triangles(),
            vertex_count: mesh.vertices.len() as i32,
        })
    }

    fn draw(&self, device: &GraphicsDevice, effect: &BasicEffect) -> xnagraph::Result<()> {
        device.set_vertex_buffer(Some(&self.vertices))?;
        device.set_indices(Some(&self.indices))?;
        effect.current_technique().passes()[0].apply()?;
        device.draw_indexed_primitives(
            PrimitiveType::TriangleList,
            0,
            0,
            self.vertex_count,
            0,
            self.triangles,
        )
    }
}

struct Assets {
    batch: SpriteBatch,
    font: SpriteFont,
    scene: RenderTarget2D,
    effect: BasicEffect,
    checker: Texture2D,
    stripes: Texture2D,
    sphere: Model,
    cube: Model,
}

/// The sample as an XNA `Game` (see the module doc).
pub struct Model3d {
    content: PathBuf,
    assets: Option<Assets>,
    /// Seconds of game time: the cube turns with it.
    time: f32,
    capture_frame: Option<u64>,
    captured: Option<Vec<Color>>,
    frame: u64,
    samples: Option<i32>,
    /// When the first and the latest frame finished recording.
    frame_times: Option<(Instant, Instant)>,
}

/// A `size` × `size` checker of two colours in `cells` × `cells` squares.
fn checker(
    device: &GraphicsDevice,
    size: i32,
    cells: i32,
    a: Color,
    b: Color,
) -> xnagraph::Result<Texture2D> {
    let cell = size / cells;
    let texels: Vec<Color> = (0..size * size)
        .map(|i| if ((i % size) / cell + (i / size) / cell) % 2 == 0 { a } else { b })
        .collect();
    let t = Texture2D::new(device, size, size)?;
    t.set_data(&texels)?;
    Ok(t)
}

impl Model3d {
    /// A sample reading its font from `content` (`fonts/DejaVuSans.ttf`).
    pub fn new(content: impl Into<PathBuf>) -> Self {
        Model3d {
            content: content.into(),
            assets: None,
            time: 0.0,
            capture_frame: None,
            captured: None,
            frame: 0,
            samples: None,
            frame_times: None,
        }
    }

    /// Reads the back buffer of frame `frame` (counted from 0) before it is presented;
    /// [`Model3d::captured`] then returns it.
    pub fn capture_frame(&mut self, frame: u64) {
        self.capture_frame = Some(frame);
    }

    /// The back buffer read by [`Model3d::capture_frame`], row by row.
    pub fn captured(&self) -> Option<&[Color]> {
        self.captured.as_deref()
    }

    /// The mean time from one frame's end of recording to the next (the whole loop: update,
    /// recording, and the flush and present the loop does between them), over the frames after
    /// the first; `None` before two frames have been drawn.
    pub fn mean_frame_time(&self) -> Option<Duration> {
        let (first, last) = self.frame_times?;
        (self.frame > 1).then(|| (last - first) / (self.frame - 1) as u32)
    }

    /// The samples the scene target got (after the device's clamp; 0 without multisampling),
    /// once content has been loaded.
    pub fn scene_samples(&self) -> Option<i32> {
        self.samples
    }

    fn draw_frame(&mut self, ctx: &mut GameContext, a: &mut Assets) -> xnagraph::Result<()> {
        let device = ctx.graphics_device()?;
        let (w, h) = (a.scene.width(), a.scene.height());

        device.set_render_target(Some(&a.scene))?;
        device.clear(SCENE_CLEAR)?;
        device.set_depth_stencil_state(DepthStencilState::DEFAULT)?;
        device.set_blend_state(BlendState::OPAQUE)?;
        device.set_sampler_state(0, SamplerState::LINEAR_WRAP)?;
        let (view, projection) = camera(w, h)?;
        a.effect.view = view;
        a.effect.projection = projection;
        a.effect.world =
            Matrix::create_translation(SPHERE_CENTER.x, SPHERE_CENTER.y, SPHERE_CENTER.z);
        a.effect.set_texture(Some(&a.checker));
        a.sphere.draw(device, &a.effect)?;
        a.effect.world = Matrix::create_rotation_y(0.6 + self.time * 0.8)
            .mul(&Matrix::create_rotation_x(0.5))
            .mul(&Matrix::create_translation(1.2, 0.0, -0.3));
        a.effect.set_texture(Some(&a.stripes));
        a.cube.draw(device, &a.effect)?;

        device.set_render_target(None)?;
        device.clear(BACKGROUND)?;
        let params = device.presentation_parameters();
        let dest = scene_rect(params.back_buffer_width, params.back_buffer_height);
        a.batch.begin_with(
            SpriteSortMode::Deferred,
            Some(BlendState::OPAQUE),
            Some(SamplerState::POINT_CLAMP),
            None,
            None,
            None,
        )?;
        a.batch.draw_rect(&a.scene, dest, Color::WHITE)?;
        a.batch.end()?;
        a.batch.begin()?;
        let text = hud_text(a.scene.multi_sample_count().max(1));
        a.batch.draw_string(&a.font, &text, HUD_POSITION, HUD_COLOR)?;
        a.batch.end()?;

        if self.capture_frame == Some(self.frame) {
            let n = (params.back_buffer_width * params.back_buffer_height) as usize;
            let mut pixels = vec![Color::TRANSPARENT; n];
            device.get_back_buffer_data(None, &mut pixels, 0, n)?;
            self.captured = Some(pixels);
        }
        Ok(())
    }
}

impl Game for Model3d {
    fn initialize(&mut self, ctx: &mut GameContext) -> xnagraph::Result<()> {
        ctx.window.title = "xnagraph model3d".to_owned();
        Ok(())
    }

    fn load_content(&mut self, ctx: &mut GameContext) -> xnagraph::Result<()> {
        let device = ctx.graphics_device()?;
        let params = device.presentation_parameters();
        let rect = scene_rect(params.back_buffer_width, params.back_buffer_height);
        let samples = device.capabilities().clamp_sample_count(REQUESTED_SAMPLES as u32);
        let scene = RenderTarget2D::with_options(
            device,
            rect.width,
            rect.height,
            false,
            SurfaceFormat::Color,
            DepthFormat::Depth24,
            samples as i32,
            RenderTargetUsage::DiscardContents,
        )?;
        scene.set_name("scene");
        self.samples = Some(scene.multi_sample_count());
        let mut effect = BasicEffect::new(device)?;
        effect.enable_default_lighting();
        effect.prefer_per_pixel_lighting = true;
        effect.texture_enabled = true;
        let options = FontOptions { size_px: 20.0, ..FontOptions::default() };
        let font =
            SpriteFont::from_file(device, self.content.join("fonts/DejaVuSans.ttf"), &options)?;
        let light = Color::new(235, 235, 225, 255);
        self.assets = Some(Assets {
            batch: SpriteBatch::new(device)?,
            font,
            scene,
            effect,
            checker: checker(device, 64, 8, light, Color::new(200, 90, 60, 255))?,
            stripes: checker(device, 32, 2, light, Color::new(70, 130, 200, 255))?,
            sphere: Model::new(device, &mesh::sphere(SPHERE_RADIUS, 24, 32))?,
            cube: Model::new(device, &mesh::cube(1.3))?,
        });
        Ok(())
    }

    fn unload_content(&mut self, _ctx: &mut GameContext) -> xnagraph::Result<()> {
        self.assets = None;
        Ok(())
    }

    fn update(&mut self, _ctx: &mut GameContext, time: &GameTime) -> xnagraph::Result<()> {
        self.time += time.elapsed_game_time.as_secs_f32();
        Ok(())
    }

    fn draw(&mut self, ctx: &mut GameContext, _time: &GameTime) -> xnagraph::Result<()> {
        let mut assets =
            self.assets.take().ok_or_else(|| xnagraph::XnaError::InvalidOperation {
                message: "Draw was called before LoadContent.".to_owned(),
            })?;
        let drawn = self.draw_frame(ctx, &mut assets);
        self.assets = Some(assets);
        drawn?;
        let now = Instant::now();
        self.frame_times = Some(self.frame_times.map_or((now, now), |(first, _)| (first, now)));
        self.frame += 1;
        Ok(())
    }
}
