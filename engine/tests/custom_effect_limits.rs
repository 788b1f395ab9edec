//! What limits a custom effect's uniform blocks: SDL_gpu binds 4 KiB of a uniform buffer, so a
//! larger block is `NotSupported` there at the constructor; Vulkan takes it and draws with
//! every element (the last one, past 4 KiB, steers the pixel).

mod common;

use common::*;
use xnagraph::{
    Color, CustomEffect, PassSource, PrimitiveType, TechniqueSource, Vector3, Vector4,
    VertexPositionColor, XnaError,
};

const VERTEX: &str = "#version 450
layout(location = 0) in vec3 Position;
void main() { gl_Position = vec4(Position, 1.0); }
";

/// 300 vec4s: 4800 bytes, past SDL_gpu's 4 KiB window; the colour is the last one.
const FRAGMENT: &str = "#version 450
layout(set = 3, binding = 0) uniform Fragment { vec4 Palette[300]; };
layout(location = 0) out vec4 color;
void main() { color = Palette[299]; }
";

#[test]
fn a_uniform_block_past_four_kib_is_refused_on_sdlgpu_and_read_whole_on_vulkan() {
    let _v = Validation::new();
    let device = device(8, 8);
    let made = CustomEffect::new(
        &device,
        &[TechniqueSource {
            name: "T",
            passes: &[PassSource { name: "P", vertex: VERTEX, fragment: FRAGMENT }],
        }],
    );
    if on_sdlgpu() {
        match made {
            Err(XnaError::NotSupported { message }) => {
                assert!(message.contains("4096"), "{message}")
            }
            other => panic!("expected NotSupported, got {other:?}"),
        }
        return;
    }
    let effect = made.unwrap();
    let mut palette = vec![Vector4::new(0.0, 0.0, 0.0, 1.0); 300];
    palette[299] = Vector4::new(0.2, 0.6, 1.0, 1.0);
    effect.parameter("Palette").unwrap().set_value(&palette[..]).unwrap();
    let v = |x: f32, y: f32| VertexPositionColor {
        position: Vector3::new(x, y, 0.5),
        color: Color::WHITE,
    };
    device.clear(Color::BLACK).unwrap();
    effect.current_technique().passes()[0].apply().unwrap();
    let quad = [v(-1.0, 1.0), v(1.0, 1.0), v(-1.0, -1.0), v(1.0, -1.0)];
    device.draw_user_primitives(PrimitiveType::TriangleStrip, &quad, 0, 2).unwrap();
    let px = read_back_buffer(&device);
    assert_eq!(at(&px, 8, 5, 3), Color::new(51, 153, 255, 255));
}
