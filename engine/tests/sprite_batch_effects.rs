//! SpriteBatch.Begin with an effect that has its own vertex stage (BasicEffect,
//! AlphaTestEffect), as XNA games use it: sprites and text become quads placed by the effect's
//! World × View × Projection, each sampling its own texture (not the effect's), tinted through
//! the vertex colour, in the batch's sort order. Pixels are read back from a render target and
//! compared with images computed here; plus the errors of `begin` and the pixel-stage path.

mod common;

use common::*;
use xnagraph::{
    AlphaTestEffect, BasicEffect, BlendState, Color, CompareFunction, CustomEffect, DepthFormat,
    DepthStencilState, DualTextureEffect, Effect, FontOptions, GraphicsDevice, Matrix, PassSource,
    RasterizerState, Rectangle, RenderTarget2D, RenderTargetUsage, SamplerState, SpriteBatch,
    SpriteBatchEffect, SpriteBatchOptions, SpriteEffects, SpriteFont, SpriteSortMode,
    SurfaceFormat, TechniqueSource, Texture2D, TextureCube, Vector2, Vector3, Vector4, XnaError,
};

const W: i32 = 64;
const H: i32 = 48;
const CLEAR: Color = Color::new(9, 19, 29, 255);

fn texture(device: &GraphicsDevice, w: i32, h: i32, texels: &[Color]) -> Texture2D {
    let t = Texture2D::new(device, w, h).unwrap();
    t.set_data(texels).unwrap();
    t
}

/// Clears a W×H target, runs `draw` into it and returns its pixels.
fn drawn(device: &GraphicsDevice, draw: impl FnOnce(&mut SpriteBatch)) -> Vec<Color> {
    let rt = RenderTarget2D::new(device, W, H).unwrap();
    device.set_render_target(Some(&rt)).unwrap();
    device.clear(CLEAR).unwrap();
    let mut sb = SpriteBatch::new(device).unwrap();
    draw(&mut sb);
    device.set_render_target(None).unwrap();
    read_target(&rt)
}

/// XNA's pixel-space orthographic projection (y down), depths -1..1 inside the clip range.
fn pixel_projection() -> Matrix {
    Matrix::create_orthographic_off_center(0.0, W as f32, H as f32, 0.0, -1.0, 1.0)
}

/// Opaque, point-sampled: every pixel is a texel times the vertex colour, exactly.
fn opaque(effect: SpriteBatchEffect<'_>, sort: SpriteSortMode) -> SpriteBatchOptions<'_> {
    SpriteBatchOptions {
        sort_mode: sort,
        blend_state: BlendState::OPAQUE,
        sampler_state: SamplerState::POINT_CLAMP,
        effect: Some(effect),
        ..SpriteBatchOptions::default()
    }
}

/// Fills `rect` of `image` with `color(x, y)` (x, y relative to the rectangle).
fn fill(image: &mut [Color], rect: Rectangle, color: impl Fn(i32, i32) -> Color) {
    for y in rect.y..rect.y + rect.height {
        for x in rect.x..rect.x + rect.width {
            image[(y * W + x) as usize] = color(x - rect.x, y - rect.y);
        }
    }
}

#[track_caller]
fn assert_image(got: &[Color], want: &[Color]) {
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(g, w, "pixel ({}, {})", i as i32 % W, i as i32 / W);
    }
}

/// Multiplies a texel by a tint as the GPU's 8-bit normalised arithmetic does.
fn tinted(texel: Color, tint: Color) -> Color {
    let m = |a: u8, b: u8| ((a as f32 / 255.0) * (b as f32 / 255.0) * 255.0).round() as u8;
    Color::new(m(texel.r, tint.r), m(texel.g, tint.g), m(texel.b, tint.b), m(texel.a, tint.a))
}

#[test]
fn basic_effect_places_sprites_by_its_projection_sampling_their_own_textures_tinted() {
    let _v = Validation::new();
    let device = device(W, H);
    let (red, green) = (Color::new(220, 30, 40, 255), Color::new(20, 200, 60, 255));
    let pair = texture(&device, 2, 1, &[red, green]);
    let white = white(&device);
    let decoy = solid(&device, 2, 2, Color::new(255, 0, 255, 255));
    let mut effect = BasicEffect::new(&device).unwrap();
    effect.projection = pixel_projection();
    effect.texture_enabled = true;
    effect.vertex_color_enabled = true;
    effect.set_texture(Some(&decoy));
    let tint = Color::new(40, 80, 120, 255);
    let half = Color::new(255, 128, 64, 255);
    let (a, b, c) =
        (Rectangle::new(5, 3, 8, 6), Rectangle::new(30, 20, 7, 9), Rectangle::new(45, 31, 10, 4));
    let got = drawn(&device, |sb| {
        sb.begin_with_options(&opaque((&effect).into(), SpriteSortMode::Deferred)).unwrap();
        sb.draw_rect(&pair, a, Color::WHITE).unwrap();
        sb.draw_rect(&white, b, tint).unwrap();
        let flip = SpriteEffects::FLIP_HORIZONTALLY;
        sb.draw_rect_ex(&pair, c, None, half, 0.0, Vector2::ZERO, flip, 0.0).unwrap();
        sb.end().unwrap();
    });
    let mut want = vec![CLEAR; (W * H) as usize];
    fill(&mut want, a, |x, _| if x < 4 { red } else { green });
    fill(&mut want, b, |_, _| tint);
    fill(&mut want, c, |x, _| tinted(if x < 5 { green } else { red }, half));
    assert_image(&got, &want);
    // The game's effect still holds its own texture.
    assert_eq!(effect.texture().unwrap().resource_id(), decoy.resource_id());
}

#[test]
fn basic_effect_ignores_the_batch_transform_matrix() {
    let _v = Validation::new();
    let device = device(W, H);
    let white = white(&device);
    let mut effect = BasicEffect::new(&device).unwrap();
    effect.projection = pixel_projection();
    let rect = Rectangle::new(10, 12, 6, 5);
    let got = drawn(&device, |sb| {
        let options = SpriteBatchOptions {
            transform_matrix: Matrix::create_translation(20.0, 7.0, 0.0),
            ..opaque((&effect).into(), SpriteSortMode::Deferred)
        };
        sb.begin_with_options(&options).unwrap();
        sb.draw_rect(&white, rect, Color::WHITE).unwrap();
        sb.end().unwrap();
    });
    let mut want = vec![CLEAR; (W * H) as usize];
    fill(&mut want, rect, |_, _| Color::WHITE);
    assert_image(&got, &want);
}

/// Where `p` of world space lands on the target, in pixels (y down).
fn to_pixels(p: Vector3, world_view_projection: &Matrix) -> (f32, f32) {
    let c = Vector4::new(p.x, p.y, p.z, 1.0).transform(world_view_projection);
    let (x, y) = (c.x / c.w, c.y / c.w);
    ((x + 1.0) * 0.5 * W as f32, (1.0 - y) * 0.5 * H as f32)
}

#[test]
fn billboard_through_a_perspective_basic_effect_lands_where_its_corners_project() {
    let _v = Validation::new();
    let device = device(W, H);
    // Four texels: top left, top right, bottom left, bottom right of the sprite.
    let quadrants = [
        Color::new(200, 20, 20, 255),
        Color::new(20, 200, 20, 255),
        Color::new(20, 20, 200, 255),
        Color::new(200, 200, 20, 255),
    ];
    let tex = texture(&device, 2, 2, &quadrants);
    let mut effect = BasicEffect::new(&device).unwrap();
    // XNA's 3D text pattern: the sprite's pixels become world units, y flipped up.
    effect.world =
        Matrix::create_scale(1.0, -1.0, 1.0).mul(&Matrix::create_translation(-9.0, 5.0, -2.0));
    effect.view = Matrix::create_look_at(Vector3::new(0.0, 0.0, 30.0), Vector3::ZERO, Vector3::UP);
    let aspect = W as f32 / H as f32;
    effect.projection =
        Matrix::create_perspective_field_of_view(std::f32::consts::FRAC_PI_4, aspect, 1.0, 100.0)
            .unwrap();
    effect.texture_enabled = true;
    let size = 8.0;
    let got = drawn(&device, |sb| {
        let options = SpriteBatchOptions {
            rasterizer_state: RasterizerState::CULL_NONE,
            ..opaque((&effect).into(), SpriteSortMode::Deferred)
        };
        sb.begin_with_options(&options).unwrap();
        sb.draw_rect(&tex, Rectangle::new(0, 0, size as i32, size as i32), Color::WHITE).unwrap();
        sb.end().unwrap();
    });
    let wvp = effect.world.mul(&effect.view).mul(&effect.projection);
    let (left, top) = to_pixels(Vector3::ZERO, &wvp);
    let (right, bottom) = to_pixels(Vector3::new(size, size, 0.0), &wvp);
    assert!(left < right && top < bottom, "({left}, {top}) to ({right}, {bottom})");
    // Off-centre: the quad sits left of and above the target's centre.
    assert!(right < W as f32 / 2.0 + 4.0 && top < H as f32 / 2.0, "{left} {top}");
    let (mid_x, mid_y) = ((left + right) / 2.0, (top + bottom) / 2.0);
    let mut inside = 0;
    for y in 0..H {
        for x in 0..W {
            let (cx, cy) = (x as f32 + 0.5, y as f32 + 0.5);
            let got = at(&got, W, x, y);
            let margin = 1.0;
            let within = cx > left + margin
                && cx < right - margin
                && cy > top + margin
                && cy < bottom - margin;
            let outside = cx < left - margin
                || cx > right + margin
                || cy < top - margin
                || cy > bottom + margin;
            let near_middle = (cx - mid_x).abs() < margin || (cy - mid_y).abs() < margin;
            if within && !near_middle {
                let q = usize::from(cx > mid_x) + 2 * usize::from(cy > mid_y);
                assert_eq!(got, quadrants[q], "pixel ({x}, {y})");
                inside += 1;
            } else if outside {
                assert_eq!(got, CLEAR, "pixel ({x}, {y})");
            }
        }
    }
    assert!(inside > 40, "pixels checked inside: {inside}");
}

#[test]
fn alpha_test_effect_discards_sprite_texels_at_or_below_the_reference() {
    let _v = Validation::new();
    let device = device(W, H);
    let texels = [
        Color::new(0, 0, 0, 0),
        Color::new(50, 40, 30, 100),
        Color::new(60, 90, 120, 129),
        Color::new(250, 200, 100, 255),
    ];
    let tex = texture(&device, 4, 1, &texels);
    let mut effect = AlphaTestEffect::new(&device).unwrap();
    effect.projection = pixel_projection();
    effect.alpha_function = CompareFunction::Greater;
    effect.reference_alpha = 128;
    // No Texture set: the sprite's texture is what is sampled.
    let rect = Rectangle::new(7, 9, 16, 3);
    let got = drawn(&device, |sb| {
        sb.begin_with_options(&opaque((&effect).into(), SpriteSortMode::Deferred)).unwrap();
        sb.draw_rect(&tex, rect, Color::WHITE).unwrap();
        sb.end().unwrap();
    });
    let mut want = vec![CLEAR; (W * H) as usize];
    fill(&mut want, rect, |x, _| {
        let t = texels[(x / 4) as usize];
        if t.a > 128 {
            t
        } else {
            CLEAR
        }
    });
    assert_image(&got, &want);
}

#[test]
fn sort_modes_order_the_quads_of_an_effect_batch() {
    let _v = Validation::new();
    let device = device(W, H);
    let colors =
        [Color::new(200, 0, 0, 255), Color::new(0, 200, 0, 255), Color::new(0, 0, 200, 255)];
    let textures: Vec<Texture2D> = colors.iter().map(|&c| solid(&device, 1, 1, c)).collect();
    let depths = [0.2, 0.9, 0.5];
    let rects = [
        Rectangle::new(10, 10, 20, 20),
        Rectangle::new(14, 6, 20, 20),
        Rectangle::new(6, 14, 20, 20),
    ];
    let mut effect = BasicEffect::new(&device).unwrap();
    effect.projection = pixel_projection();
    effect.texture_enabled = true;
    for (sort, order) in [
        (SpriteSortMode::Deferred, [0, 1, 2]),
        (SpriteSortMode::Immediate, [0, 1, 2]),
        (SpriteSortMode::BackToFront, [1, 2, 0]),
        (SpriteSortMode::FrontToBack, [0, 2, 1]),
    ] {
        let got = drawn(&device, |sb| {
            sb.begin_with_options(&opaque((&effect).into(), sort)).unwrap();
            for i in 0..3 {
                let (t, r) = (&textures[i], rects[i]);
                sb.draw_rect_ex(
                    t,
                    r,
                    None,
                    Color::WHITE,
                    0.0,
                    Vector2::ZERO,
                    SpriteEffects::NONE,
                    depths[i],
                )
                .unwrap();
            }
            sb.end().unwrap();
        });
        let mut want = vec![CLEAR; (W * H) as usize];
        for i in order {
            fill(&mut want, rects[i], |_, _| colors[i]);
        }
        assert_image(&got, &want);
    }
}

#[test]
fn draw_string_through_a_basic_effect_matches_the_stock_batch() {
    let _v = Validation::new();
    let device = device(W, H);
    const FONT: &[u8] = include_bytes!("../../samples/content/fonts/DejaVuSans.ttf");
    let font = SpriteFont::from_bytes(
        &device,
        FONT,
        &FontOptions { size_px: 14.0, ..FontOptions::default() },
    )
    .unwrap();
    let mut effect = BasicEffect::new(&device).unwrap();
    effect.projection = pixel_projection();
    effect.texture_enabled = true;
    effect.vertex_color_enabled = true;
    let tint = Color::new(255, 200, 0, 255);
    let text = |sb: &mut SpriteBatch| sb.draw_string(&font, "Hi jq!", Vector2::new(6.0, 9.0), tint);
    let stock = drawn(&device, |sb| {
        let options = SpriteBatchOptions {
            sampler_state: SamplerState::POINT_CLAMP,
            ..SpriteBatchOptions::default()
        };
        sb.begin_with_options(&options).unwrap();
        text(sb).unwrap();
        sb.end().unwrap();
    });
    let through_effect = drawn(&device, |sb| {
        let options = SpriteBatchOptions {
            sampler_state: SamplerState::POINT_CLAMP,
            effect: Some((&effect).into()),
            ..SpriteBatchOptions::default()
        };
        sb.begin_with_options(&options).unwrap();
        text(sb).unwrap();
        sb.end().unwrap();
    });
    let lit = stock.iter().filter(|&&c| c != CLEAR).count();
    assert!(lit > 30, "the text covers pixels: {lit}");
    for (a, b) in stock.iter().zip(&through_effect) {
        assert_near(*b, *a, 1);
    }
}

#[test]
fn begin_refuses_an_effect_of_another_device_or_a_disposed_one() {
    let _v = Validation::new();
    let device = device(W, H);
    let other = common::device(8, 8);
    let foreign = BasicEffect::new(&other).unwrap();
    let mut sb = SpriteBatch::new(&device).unwrap();
    let begin = |sb: &mut SpriteBatch, effect: SpriteBatchEffect<'_>| {
        sb.begin_with_effect(SpriteSortMode::Deferred, None, None, None, None, Some(effect), None)
    };
    match begin(&mut sb, (&foreign).into()) {
        Err(XnaError::Argument { param: "effect", .. }) => {}
        other => panic!("expected Argument on effect, got {other:?}"),
    }
    let foreign_test = AlphaTestEffect::new(&other).unwrap();
    assert!(matches!(
        begin(&mut sb, (&foreign_test).into()),
        Err(XnaError::Argument { param: "effect", .. })
    ));
    // The batch did not begin: a begin with a good effect works.
    let own = BasicEffect::new(&device).unwrap();
    begin(&mut sb, (&own).into()).unwrap();
    // A cube cannot be drawn through an effect.
    let cube = TextureCube::new(&device, 4, false, SurfaceFormat::Color).unwrap();
    assert!(matches!(
        sb.draw_cube_direction(&cube, Rectangle::new(0, 0, 4, 4), Vector3::UP),
        Err(XnaError::InvalidOperation { .. })
    ));
    sb.end().unwrap();
    // A disposed pixel-stage effect through the same argument.
    let pixel = Effect::from_glsl(
        &device,
        "#version 450\nlayout(location = 0) in vec4 v_color;\n\
         layout(location = 0) out vec4 o;\nvoid main() { o = v_color; }\n",
    )
    .unwrap();
    pixel.dispose();
    assert!(matches!(begin(&mut sb, (&pixel).into()), Err(XnaError::ObjectDisposed { .. })));
    // A disposed device.
    drop(other);
    device.dispose();
    assert!(matches!(begin(&mut sb, (&own).into()), Err(XnaError::ObjectDisposed { .. })));
}

#[test]
fn a_lit_basic_effect_is_refused_at_end_for_lack_of_normals() {
    let _v = Validation::new();
    let device = device(W, H);
    let white = white(&device);
    let mut effect = BasicEffect::new(&device).unwrap();
    effect.enable_default_lighting();
    let mut sb = SpriteBatch::new(&device).unwrap();
    sb.begin_with_options(&opaque((&effect).into(), SpriteSortMode::Deferred)).unwrap();
    sb.draw(&white, Vector2::ZERO, Color::WHITE).unwrap();
    assert!(matches!(sb.end(), Err(XnaError::InvalidOperation { .. })));
    // The batch ended: it begins again.
    sb.begin().unwrap();
    sb.end().unwrap();
}

#[test]
fn a_pixel_stage_effect_still_colours_stock_placed_sprites() {
    let _v = Validation::new();
    let device = device(W, H);
    let white = white(&device);
    let effect = Effect::from_glsl(
        &device,
        "#version 450\nlayout(location = 0) in vec4 v_color;\n\
         layout(location = 0) out vec4 o;\nvoid main() { o = vec4(0.2, 0.4, 0.6, 1.0); }\n",
    )
    .unwrap();
    let rect = Rectangle::new(20, 5, 9, 7);
    let got = drawn(&device, |sb| {
        let options = SpriteBatchOptions {
            transform_matrix: Matrix::create_translation(3.0, 2.0, 0.0),
            ..opaque((&effect).into(), SpriteSortMode::Deferred)
        };
        sb.begin_with_options(&options).unwrap();
        sb.draw_rect(&white, rect, Color::WHITE).unwrap();
        sb.end().unwrap();
        // The `Option<&Effect>` form of Begin compiles and draws as before.
        sb.begin_with_effect(SpriteSortMode::Deferred, None, None, None, None, Some(&effect), None)
            .unwrap();
        sb.end().unwrap();
    });
    let mut want = vec![CLEAR; (W * H) as usize];
    // The batch transform applies to a pixel-stage effect.
    fill(&mut want, Rectangle::new(23, 7, 9, 7), |_, _| Color::new(51, 102, 153, 255));
    assert_image(&got, &want);
}

const SPRITE_VERTEX: &str = "#version 450
layout(set = 1, binding = 0) uniform Vertex { mat4 MatrixTransform; vec2 Shift; };
layout(location = 0) in vec3 Position;
layout(location = 1) in vec4 Color;
layout(location = 2) in vec2 TextureCoordinate;
layout(location = 0) out vec4 tint;
layout(location = 1) out vec2 uv;
void main() {
    gl_Position = MatrixTransform * vec4(Position.xy + Shift, Position.z, 1.0);
    tint = Color;
    uv = TextureCoordinate;
}
";

const SPRITE_FRAGMENT: &str = "#version 450
layout(set = 2, binding = 0) uniform sampler2D Texture;
layout(location = 0) in vec4 tint;
layout(location = 1) in vec2 uv;
layout(location = 0) out vec4 color;
void main() { color = texture(Texture, uv) * tint; }
";

/// The second pass: the same quad 20 pixels to the right, its colour inverted.
const SHIFTED_VERTEX: &str = "#version 450
layout(set = 1, binding = 0) uniform Vertex { mat4 MatrixTransform; vec2 Shift; };
layout(location = 0) in vec3 Position;
layout(location = 1) in vec4 Color;
layout(location = 2) in vec2 TextureCoordinate;
layout(location = 0) out vec4 tint;
layout(location = 1) out vec2 uv;
void main() {
    gl_Position = MatrixTransform * vec4(Position.xy + Shift + vec2(20.0, 0.0), Position.z, 1.0);
    tint = Color;
    uv = TextureCoordinate;
}
";

const INVERTED_FRAGMENT: &str = "#version 450
layout(set = 2, binding = 0) uniform sampler2D Texture;
layout(location = 0) in vec4 tint;
layout(location = 1) in vec2 uv;
layout(location = 0) out vec4 color;
void main() { color = vec4(1.0 - (texture(Texture, uv) * tint).rgb, 1.0); }
";

#[test]
fn custom_effect_draws_every_pass_of_its_technique_sampling_the_sprite_texture() {
    let _v = Validation::new();
    let device = device(W, H);
    let effect = CustomEffect::new(
        &device,
        &[TechniqueSource {
            name: "Sprites",
            passes: &[
                PassSource { name: "Plain", vertex: SPRITE_VERTEX, fragment: SPRITE_FRAGMENT },
                PassSource { name: "Shifted", vertex: SHIFTED_VERTEX, fragment: INVERTED_FRAGMENT },
            ],
        }],
    )
    .unwrap();
    effect.parameter("MatrixTransform").unwrap().set_value(pixel_projection()).unwrap();
    effect.parameter("Shift").unwrap().set_value(Vector2::new(2.0, 1.0)).unwrap();
    let decoy = solid(&device, 1, 1, Color::new(255, 0, 255, 255));
    effect.parameter("Texture").unwrap().set_value(&decoy).unwrap();
    let (red, green) = (Color::new(220, 30, 40, 255), Color::new(20, 200, 60, 255));
    let pair = texture(&device, 2, 1, &[red, green]);
    let tint = Color::new(255, 128, 255, 255);
    let rect = Rectangle::new(4, 6, 8, 5);
    let got = drawn(&device, |sb| {
        let options = SpriteBatchOptions {
            // Ignored: the effect's vertex stage places the quads.
            transform_matrix: Matrix::create_translation(9.0, 9.0, 0.0),
            ..opaque((&effect).into(), SpriteSortMode::Deferred)
        };
        sb.begin_with_options(&options).unwrap();
        sb.draw_rect(&pair, rect, tint).unwrap();
        sb.end().unwrap();
    });
    let mut want = vec![CLEAR; (W * H) as usize];
    let texel = |x: i32| tinted(if x < 4 { red } else { green }, tint);
    fill(&mut want, Rectangle::new(6, 7, 8, 5), |x, _| texel(x));
    fill(&mut want, Rectangle::new(26, 7, 8, 5), |x, _| {
        let c = texel(x);
        Color::new(255 - c.r, 255 - c.g, 255 - c.b, 255)
    });
    assert_image(&got, &want);
    // Of another device: Argument on effect; disposed: ObjectDisposed.
    let other = common::device(8, 8);
    let mut sb = SpriteBatch::new(&other).unwrap();
    let begin = |sb: &mut SpriteBatch| {
        sb.begin_with_effect(SpriteSortMode::Deferred, None, None, None, None, Some(&effect), None)
    };
    assert!(matches!(begin(&mut sb), Err(XnaError::Argument { param: "effect", .. })));
    let mut own = SpriteBatch::new(&device).unwrap();
    effect.dispose();
    assert!(matches!(begin(&mut own), Err(XnaError::ObjectDisposed { .. })));
}

#[test]
fn layer_depth_is_the_quads_z_under_a_depth_test() {
    let _v = Validation::new();
    let device = device(W, H);
    let rt = RenderTarget2D::with_options(
        &device,
        W,
        H,
        false,
        SurfaceFormat::Color,
        DepthFormat::Depth24,
        0,
        RenderTargetUsage::DiscardContents,
    )
    .unwrap();
    let (red, green) = (Color::new(200, 0, 0, 255), Color::new(0, 200, 0, 255));
    let (near, far) = (solid(&device, 1, 1, red), solid(&device, 1, 1, green));
    let mut effect = BasicEffect::new(&device).unwrap();
    // Clip depth 0.5 - z / 2: a higher layer depth is nearer.
    effect.projection = pixel_projection();
    effect.texture_enabled = true;
    device.set_render_target(Some(&rt)).unwrap();
    device.clear(CLEAR).unwrap();
    let mut sb = SpriteBatch::new(&device).unwrap();
    let options = SpriteBatchOptions {
        depth_stencil_state: DepthStencilState::DEFAULT,
        ..opaque((&effect).into(), SpriteSortMode::Deferred)
    };
    sb.begin_with_options(&options).unwrap();
    let (a, b) = (Rectangle::new(8, 8, 16, 12), Rectangle::new(16, 12, 16, 12));
    let none = SpriteEffects::NONE;
    sb.draw_rect_ex(&near, a, None, Color::WHITE, 0.0, Vector2::ZERO, none, 0.8).unwrap();
    // Drawn later, but farther: hidden where they overlap.
    sb.draw_rect_ex(&far, b, None, Color::WHITE, 0.0, Vector2::ZERO, none, 0.2).unwrap();
    sb.end().unwrap();
    device.set_render_target(None).unwrap();
    let got = read_target(&rt);
    let mut want = vec![CLEAR; (W * H) as usize];
    fill(&mut want, b, |_, _| green);
    fill(&mut want, a, |_, _| red);
    assert_image(&got, &want);
}

#[test]
fn dual_texture_effect_lacks_its_second_coordinate_as_in_xna() {
    let _v = Validation::new();
    let device = device(W, H);
    let white = white(&device);
    let mut effect = DualTextureEffect::new(&device).unwrap();
    effect.set_texture2(Some(&white));
    let mut sb = SpriteBatch::new(&device).unwrap();
    sb.begin_with_options(&opaque((&effect).into(), SpriteSortMode::Deferred)).unwrap();
    sb.draw(&white, Vector2::ZERO, Color::WHITE).unwrap();
    match sb.end() {
        Err(XnaError::InvalidOperation { message }) => {
            assert!(message.contains("TextureCoordinate1"), "{message}")
        }
        other => panic!("expected InvalidOperation, got {other:?}"),
    }
}
