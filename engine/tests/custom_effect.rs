//! Custom geometry effects (`CustomEffect`): GLSL 450 vertex and fragment stages with
//! techniques, passes and reflected parameters. A parameter of every type steers the pixels of
//! one draw; `apply` snapshots the values; every mismatched type is `InvalidCast`; a compile
//! error carries the compiler's line; instanced drawing reads per-instance offsets and colours.

mod common;

use common::*;
use xnagraph::{
    BufferUsage, Color, CustomEffect, GraphicsDevice, GraphicsProfile, IndexBuffer,
    IndexElementSize, Matrix, ParameterClass, ParameterType, PassSource, PrimitiveType,
    SamplerState, TechniqueSource, Texture2D, Vector2, Vector3, Vector4, VertexBuffer,
    VertexBufferBinding, VertexDeclaration, VertexElement, VertexElementFormat, VertexElementUsage,
    VertexPositionColor, VertexPositionTexture, XnaError,
};

const W: i32 = 32;
const H: i32 = 24;
const CLEAR: Color = Color::new(10, 20, 30, 255);

/// XNA's matrix from pixel coordinates (y down) to clip space (y up). Near 0 and far −1 make
/// clip depth equal the vertex's z.
fn pixels_to_clip() -> Matrix {
    Matrix::create_orthographic_off_center(0.0, W as f32, H as f32, 0.0, 0.0, -1.0)
}

const EVERY_TYPE_VERTEX: &str = "#version 450
layout(set = 1, binding = 0) uniform Vertex {
    mat4 World;
    mat4 Bones[2];
    vec2 Offset;
    float Scale;
    int Shift;
    bool Flip;
    float Lift[2];
};
layout(location = 0) in vec3 Position;
layout(location = 1) in vec2 TextureCoordinate;
layout(location = 0) out vec2 uv;
void main() {
    vec2 p = Position.xy * Scale + Offset + vec2(float(Shift), Lift[1]);
    gl_Position = World * (Bones[1] * vec4(p, 0.5, 1.0));
    uv = Flip ? vec2(1.0 - TextureCoordinate.x, TextureCoordinate.y) : TextureCoordinate;
}
";

const EVERY_TYPE_FRAGMENT: &str = "#version 450
layout(set = 3, binding = 0) uniform Fragment {
    vec4 Tint;
    vec3 Bias;
    float Weights[3];
    vec4 Palette[2];
    int Pick;
    bool UseTexture;
};
layout(set = 2, binding = 1) uniform sampler2D Image;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    vec4 t = UseTexture ? texture(Image, uv) : vec4(1.0);
    color = t * Tint + vec4(Bias, 0.0) + Palette[Pick] * Weights[2];
}
";

/// The second technique: one colour, from a parameter the first technique also has.
const SOLID_FRAGMENT: &str = "#version 450
layout(set = 3, binding = 0) uniform Fragment { vec4 Tint; };
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() { color = Tint; }
";

fn every_type_effect(device: &GraphicsDevice) -> CustomEffect {
    CustomEffect::new(
        device,
        &[
            TechniqueSource {
                name: "Everything",
                passes: &[PassSource {
                    name: "Main",
                    vertex: EVERY_TYPE_VERTEX,
                    fragment: EVERY_TYPE_FRAGMENT,
                }],
            },
            TechniqueSource {
                name: "Solid",
                passes: &[PassSource {
                    name: "Only",
                    vertex: EVERY_TYPE_VERTEX,
                    fragment: SOLID_FRAGMENT,
                }],
            },
        ],
    )
    .expect("effect")
}

/// A unit quad (a triangle strip), texture coordinates equal to positions.
fn unit_quad(device: &GraphicsDevice) -> VertexBuffer {
    let v = |x: f32, y: f32| VertexPositionTexture {
        position: Vector3::new(x, y, 0.0),
        texture_coordinate: Vector2::new(x, y),
    };
    let vb = VertexBuffer::with_type::<VertexPositionTexture>(device, 4, BufferUsage::WriteOnly)
        .unwrap();
    vb.set_data(&[v(0.0, 0.0), v(1.0, 0.0), v(0.0, 1.0), v(1.0, 1.0)]).unwrap();
    vb
}

const TEXEL0: Color = Color::new(200, 40, 100, 255);
const TEXEL1: Color = Color::new(60, 220, 20, 255);

/// Sets every parameter of the first technique; the quad lands at pixels 10..18 × 7..15.
fn set_everything(effect: &CustomEffect, texture: &Texture2D) {
    let p = |name| effect.parameter(name).unwrap();
    p("World").set_value(pixels_to_clip()).unwrap();
    // Bones[0] would collapse the quad; Bones[1] moves it by (2, 1) pixels.
    let bones = [Matrix::create_scale(0.0, 0.0, 0.0), Matrix::create_translation(2.0, 1.0, 0.0)];
    p("Bones").set_value(&bones[..]).unwrap();
    p("Offset").set_value(Vector2::new(3.0, 2.0)).unwrap();
    p("Scale").set_value(8.0f32).unwrap();
    p("Shift").set_value(5i32).unwrap();
    p("Flip").set_value(true).unwrap();
    // Lift[0] would move it far away.
    p("Lift").set_value(&[40.0f32, 4.0][..]).unwrap();
    p("Tint").set_value(Vector4::new(0.5, 1.0, 0.2, 1.0)).unwrap();
    p("Bias").set_value(Vector3::new(10.0 / 255.0, 5.0 / 255.0, 30.0 / 255.0)).unwrap();
    p("Weights").set_value(&[0.25f32, 0.75, 0.5][..]).unwrap();
    let palette = [
        Vector4::new(0.0, 100.0 / 255.0, 0.0, 0.0),
        Vector4::new(40.0 / 255.0, 0.0, 20.0 / 255.0, 0.0),
    ];
    p("Palette").set_value(&palette[..]).unwrap();
    p("Pick").set_value(1i32).unwrap();
    p("UseTexture").set_value(true).unwrap();
    p("Image").set_value(texture).unwrap();
}

/// The colour the fragment stage computes for `texel`, with the values of [`set_everything`].
fn expected(texel: Color) -> Color {
    let [r, g, b, a] = exact(texel).map(|v| v.round().clamp(0.0, 255.0) as u8);
    Color::new(r, g, b, a)
}

/// The channels the shader computes for `texel`, before conversion to 8 bits.
fn exact(texel: Color) -> [f32; 4] {
    let c = |t: u8, tint: f32, bias: f32, palette: f32| f32::from(t) * tint + bias + palette * 0.5;
    [
        c(texel.r, 0.5, 10.0, 40.0),
        c(texel.g, 1.0, 5.0, 0.0),
        c(texel.b, 0.2, 30.0, 20.0),
        c(texel.a, 1.0, 0.0, 0.0),
    ]
}

/// Whether `actual` is `texel`'s result as Vulkan allows a driver to convert it: each channel
/// the nearest integer, or, for a channel exactly halfway between two, either of them (an
/// NVIDIA driver and lavapipe round such halves differently).
fn converted(actual: Color, texel: Color) -> bool {
    let got = [actual.r, actual.g, actual.b, actual.a];
    exact(texel).iter().zip(got).all(|(&v, got)| {
        let got = f32::from(got);
        if (v - v.floor() - 0.5).abs() < 1e-3 {
            got == v.floor() || got == v.ceil()
        } else {
            got == v.round().clamp(0.0, 255.0)
        }
    })
}

#[test]
fn parameters_of_every_type_steer_the_pixels() {
    let _v = Validation::new();
    let device = device(W, H);
    let effect = every_type_effect(&device);
    let texture = Texture2D::new(&device, 2, 1).unwrap();
    texture.set_data(&[TEXEL0, TEXEL1]).unwrap();
    set_everything(&effect, &texture);
    // The fragment sampler is at binding 1: SamplerStates[1] samples it (slot 0 stays linear).
    device.set_sampler_state(1, SamplerState::POINT_CLAMP).unwrap();
    let vb = unit_quad(&device);
    device.set_vertex_buffer(Some(&vb)).unwrap();
    device.clear(CLEAR).unwrap();
    for pass in effect.current_technique().passes() {
        pass.apply().unwrap();
        device.draw_primitives(PrimitiveType::TriangleStrip, 0, 2).unwrap();
    }
    // The second technique, moved down by 8 pixels through a parameter both share.
    effect.set_current_technique("Solid").unwrap();
    effect.parameter("Offset").unwrap().set_value(Vector2::new(3.0, 10.0)).unwrap();
    effect.parameter("Tint").unwrap().set_value(Vector4::new(0.2, 0.4, 0.6, 1.0)).unwrap();
    for pass in effect.current_technique().passes() {
        pass.apply().unwrap();
        device.draw_primitives(PrimitiveType::TriangleStrip, 0, 1).unwrap();
    }
    let px = read_back_buffer(&device);
    let p = |x, y| at(&px, W, x, y);
    // Flip: the left half shows texel 1, the right half texel 0.
    for (x, y) in [(10, 7), (13, 14), (11, 10)] {
        assert_eq!(p(x, y), expected(TEXEL1), "left half at {x},{y}");
    }
    for (x, y) in [(14, 7), (17, 14), (16, 9)] {
        assert_eq!(p(x, y), expected(TEXEL0), "right half at {x},{y}");
    }
    for (x, y) in [(9, 10), (18, 10), (12, 6), (31, 0), (0, 23)] {
        assert_eq!(p(x, y), CLEAR, "outside at {x},{y}");
    }
    // One triangle of the second technique's quad: rows 15..23, upper-left half.
    let solid = Color::new(51, 102, 153, 255);
    for (x, y) in [(10, 15), (16, 15), (10, 21)] {
        assert_eq!(p(x, y), solid, "second technique at {x},{y}");
    }
    assert_eq!(p(17, 22), CLEAR, "the second technique drew one triangle");
}

#[test]
fn apply_snapshots_the_values() {
    let _v = Validation::new();
    let device = device(W, H);
    let effect = every_type_effect(&device);
    let texture = Texture2D::new(&device, 2, 1).unwrap();
    texture.set_data(&[TEXEL0, TEXEL1]).unwrap();
    set_everything(&effect, &texture);
    device.set_sampler_state(1, SamplerState::POINT_CLAMP).unwrap();
    let vb = unit_quad(&device);
    device.set_vertex_buffer(Some(&vb)).unwrap();
    device.clear(CLEAR).unwrap();
    let pass = effect.current_technique().passes()[0];
    pass.apply().unwrap();
    // Set after apply: the next draw still uses the applied values.
    effect.parameter("Offset").unwrap().set_value(Vector2::new(-9.0, -6.0)).unwrap();
    effect.parameter("UseTexture").unwrap().set_value(false).unwrap();
    device.draw_primitives(PrimitiveType::TriangleStrip, 0, 2).unwrap();
    pass.apply().unwrap();
    device.draw_primitives(PrimitiveType::TriangleStrip, 0, 2).unwrap();
    let px = read_back_buffer(&device);
    let p = |x, y| at(&px, W, x, y);
    assert_eq!(p(10, 7), expected(TEXEL1), "the first draw, at the applied offset");
    assert_eq!(p(17, 14), expected(TEXEL0));
    // The second draw: 12 left, 8 up (pixels -2..6 × -1..7), untextured.
    // White's red channel is 157.5: a driver may give 157 or 158.
    let white = Color::new(255, 255, 255, 255);
    for (x, y) in [(0, 0), (5, 6), (3, 3)] {
        assert!(converted(p(x, y), white), "the second draw at {x},{y}: {:?}", p(x, y));
    }
    assert_eq!(p(6, 3), CLEAR);
    assert_eq!(p(3, 7), CLEAR);
}

#[test]
fn reflection_names_every_parameter_with_its_type() {
    let _v = Validation::new();
    let device = device(W, H);
    let effect = every_type_effect(&device);
    let found: Vec<_> = effect
        .parameters()
        .iter()
        .map(|p| (p.name().to_owned(), p.parameter_type(), p.parameter_class(), p.element_count()))
        .collect();
    use ParameterClass as C;
    use ParameterType as T;
    let want = [
        ("World", T::Matrix, C::Matrix, 0),
        ("Bones", T::Matrix, C::Matrix, 2),
        ("Offset", T::Vector2, C::Vector, 0),
        ("Scale", T::Single, C::Scalar, 0),
        ("Shift", T::Int32, C::Scalar, 0),
        ("Flip", T::Bool, C::Scalar, 0),
        ("Lift", T::Single, C::Scalar, 2),
        ("Tint", T::Vector4, C::Vector, 0),
        ("Bias", T::Vector3, C::Vector, 0),
        ("Weights", T::Single, C::Scalar, 3),
        ("Palette", T::Vector4, C::Vector, 2),
        ("Pick", T::Int32, C::Scalar, 0),
        ("UseTexture", T::Bool, C::Scalar, 0),
        ("Image", T::Texture2D, C::Object, 0),
    ];
    let want: Vec<_> = want.iter().map(|(n, t, c, e)| (n.to_string(), *t, *c, *e)).collect();
    assert_eq!(found, want);
    let names: Vec<_> = effect.techniques().iter().map(|t| t.name()).collect();
    assert_eq!(names, ["Everything", "Solid"]);
    assert_eq!(effect.current_technique().passes()[0].name(), "Main");
    assert!(effect.technique("Missing").is_none());
    assert!(matches!(
        effect.set_current_technique("Missing"),
        Err(XnaError::Argument { param: "value", .. })
    ));
}

/// Sets one value on a parameter.
type Setter<'a> = Box<dyn Fn(xnagraph::EffectParameter<'_>) -> xnagraph::Result<()> + 'a>;

/// One candidate value of every type `SetValue` takes: its type, whether it is an array, and
/// how to set it.
fn candidates(texture: &Texture2D) -> Vec<(ParameterType, bool, Setter<'_>)> {
    use ParameterType as T;
    vec![
        (T::Bool, false, Box::new(|p| p.set_value(true))),
        (T::Int32, false, Box::new(|p| p.set_value(3i32))),
        (T::Single, false, Box::new(|p| p.set_value(1.5f32))),
        (T::Vector2, false, Box::new(|p| p.set_value(Vector2::new(1.0, 2.0)))),
        (T::Vector3, false, Box::new(|p| p.set_value(Vector3::new(1.0, 2.0, 3.0)))),
        (T::Vector4, false, Box::new(|p| p.set_value(Vector4::new(1.0, 2.0, 3.0, 4.0)))),
        (T::Matrix, false, Box::new(|p| p.set_value(Matrix::IDENTITY))),
        (T::Texture2D, false, Box::new(move |p| p.set_value(texture))),
        (T::Bool, true, Box::new(|p| p.set_value(&[true][..]))),
        (T::Int32, true, Box::new(|p| p.set_value(&[1i32][..]))),
        (T::Single, true, Box::new(|p| p.set_value(&[1.0f32, 2.0][..]))),
        (T::Vector2, true, Box::new(|p| p.set_value(&[Vector2::ZERO][..]))),
        (T::Vector3, true, Box::new(|p| p.set_value(&[Vector3::ZERO][..]))),
        (T::Vector4, true, Box::new(|p| p.set_value(&[Vector4::ZERO, Vector4::ZERO][..]))),
        (T::Matrix, true, Box::new(|p| p.set_value(&[Matrix::IDENTITY][..]))),
    ]
}

#[test]
fn a_value_of_the_wrong_type_is_an_invalid_cast() {
    let _v = Validation::new();
    let device = device(W, H);
    let effect = every_type_effect(&device);
    let texture = Texture2D::new(&device, 2, 1).unwrap();
    let mut accepted = 0;
    for parameter in effect.parameters() {
        for (ty, array, set) in candidates(&texture) {
            let fits = ty == parameter.parameter_type() && array == (parameter.element_count() > 0);
            match set(parameter) {
                Ok(()) => {
                    assert!(fits, "{} took a {ty:?} (array {array})", parameter.name());
                    accepted += 1;
                }
                Err(XnaError::InvalidCast { message }) => {
                    assert!(!fits, "{} refused its own type: {message}", parameter.name());
                    assert!(message.contains(parameter.name()), "{message}");
                }
                Err(other) => panic!("{}: {ty:?}: {other:?}", parameter.name()),
            }
        }
    }
    assert_eq!(accepted, effect.parameters().len(), "each parameter takes exactly its own type");
    // An array longer than the parameter's, and an unknown name.
    assert!(matches!(
        effect.parameter("Lift").unwrap().set_value(&[1.0f32, 2.0, 3.0][..]),
        Err(XnaError::ArgumentOutOfRange { param: "value", .. })
    ));
    assert!(matches!(effect.parameter("Missing"), Err(XnaError::Argument { param: "name", .. })));
    // A pass sampling a texture parameter without a texture: `apply` empties its slot of
    // `Textures`, as XNA's does, and the draw that samples the empty slot is refused.
    let fresh = every_type_effect(&device);
    device.textures().set(1, Some(&texture)).unwrap();
    fresh.current_technique().passes()[0].apply().unwrap();
    assert!(device.textures().get(1).unwrap().is_none(), "apply wrote XNA's null");
    let quad = unit_quad(&device);
    device.set_vertex_buffer(Some(&quad)).unwrap();
    match device.draw_primitives(PrimitiveType::TriangleStrip, 0, 2) {
        Err(XnaError::InvalidOperation { message }) => {
            assert!(message.contains("Textures[1]") && message.contains("Image"), "{message}")
        }
        other => panic!("expected InvalidOperation, got {other:?}"),
    }
    // A disposed effect.
    effect.dispose();
    assert!(matches!(
        effect.parameter("Scale").unwrap().set_value(1.0f32),
        Err(XnaError::ObjectDisposed { .. })
    ));
    assert!(matches!(
        effect.current_technique().passes().first().map(|p| p.apply()),
        None | Some(Err(XnaError::ObjectDisposed { .. }))
    ));
}

#[test]
fn bad_sources_are_refused_with_the_compilers_words() {
    let _v = Validation::new();
    let device = device(W, H);
    let make = |vertex: &str, fragment: &str| {
        CustomEffect::new(
            &device,
            &[TechniqueSource { name: "T", passes: &[PassSource { name: "P", vertex, fragment }] }],
        )
    };
    let broken = "#version 450\nlayout(location = 0) in vec3 Position;\nvoid main() { gl_Position = vec4(Position, 1.0) }\n";
    match make(broken, SOLID_FRAGMENT) {
        Err(XnaError::Argument { param: "vertexSource", message }) => {
            assert!(message.contains("0:3:"), "the line is named: {message}");
            assert!(message.contains("Pass 'P' of technique 'T'"), "{message}");
        }
        other => panic!("expected Argument(vertexSource), got {other:?}"),
    }
    let bad_fragment = "#version 450\nlayout(location = 0) out vec4 color;\n\nvoid main() { color = undefined_name; }\n";
    match make(EVERY_TYPE_VERTEX, bad_fragment) {
        Err(XnaError::Argument { param: "fragmentSource", message }) => {
            assert!(message.contains("0:4:"), "the line is named: {message}");
        }
        other => panic!("expected Argument(fragmentSource), got {other:?}"),
    }
    // An input not named after a vertex element, and a parameter with two types.
    let odd_input = "#version 450\nlayout(location = 0) in vec3 Where;\nvoid main() { gl_Position = vec4(Where, 1.0); }\n";
    match make(odd_input, SOLID_FRAGMENT) {
        Err(XnaError::Argument { param: "techniques", message }) => {
            assert!(message.contains("Where"), "{message}")
        }
        other => panic!("expected Argument(techniques), got {other:?}"),
    }
    let two_types = "#version 450\nlayout(set = 3, binding = 0) uniform F { vec3 Offset; };\nlayout(location = 0) out vec4 color;\nvoid main() { color = vec4(Offset, 1.0); }\n";
    match make(EVERY_TYPE_VERTEX, two_types) {
        Err(XnaError::Argument { param: "techniques", message }) => {
            assert!(message.contains("Offset"), "{message}")
        }
        other => panic!("expected Argument(techniques), got {other:?}"),
    }
    let storage = "#version 450\nlayout(set = 3, binding = 1) buffer B { vec4 data[]; };\nlayout(location = 0) out vec4 color;\nvoid main() { color = data[0]; }\n";
    assert!(matches!(
        make(EVERY_TYPE_VERTEX, storage),
        Err(XnaError::Argument { param: "techniques", .. })
    ));
    assert!(matches!(
        CustomEffect::new(&device, &[]),
        Err(XnaError::Argument { param: "techniques", .. })
    ));
    // A declaration without an input the pass reads.
    let effect = make(EVERY_TYPE_VERTEX, SOLID_FRAGMENT).unwrap();
    effect.parameter("Image").map(|_| ()).unwrap_err();
    effect.current_technique().passes()[0].apply().unwrap();
    let vb =
        VertexBuffer::with_type::<VertexPositionColor>(&device, 3, BufferUsage::WriteOnly).unwrap();
    device.set_vertex_buffer(Some(&vb)).unwrap();
    match device.draw_primitives(PrimitiveType::TriangleList, 0, 1) {
        Err(XnaError::InvalidOperation { message }) => {
            assert!(message.contains("TextureCoordinate0"), "{message}")
        }
        other => panic!("expected InvalidOperation, got {other:?}"),
    }
}

const INSTANCED_VERTEX: &str = "#version 450
layout(set = 1, binding = 0) uniform Vertex { mat4 World; };
layout(location = 0) in vec3 Position;
layout(location = 1) in vec2 TextureCoordinate1;
layout(location = 2) in vec4 Color1;
layout(location = 0) out vec4 tint;
void main() {
    gl_Position = World * vec4(Position.xy + TextureCoordinate1, 0.5, 1.0);
    tint = Color1;
}
";

const INSTANCED_FRAGMENT: &str = "#version 450
layout(location = 0) in vec4 tint;
layout(location = 0) out vec4 color;
void main() { color = tint; }
";

/// One per-instance element: an offset in pixels (`TextureCoordinate1`) and a colour
/// (`Color1`).
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Instance {
    offset: [f32; 2],
    color: Color,
}

#[test]
fn instances_draw_at_their_own_offsets_in_their_own_colours() {
    let _v = Validation::new();
    let device = device_with(GraphicsProfile::HiDef, params(W, H));
    let effect = CustomEffect::new(
        &device,
        &[TechniqueSource {
            name: "Instanced",
            passes: &[PassSource {
                name: "P",
                vertex: INSTANCED_VERTEX,
                fragment: INSTANCED_FRAGMENT,
            }],
        }],
    )
    .unwrap();
    effect.parameter("World").unwrap().set_value(pixels_to_clip()).unwrap();
    // A 3×2-pixel quad at the origin, indexed.
    let white = Color::new(255, 255, 255, 255);
    let v =
        |x: f32, y: f32| VertexPositionColor { position: Vector3::new(x, y, 0.0), color: white };
    let quad =
        VertexBuffer::with_type::<VertexPositionColor>(&device, 4, BufferUsage::WriteOnly).unwrap();
    quad.set_data(&[v(0.0, 0.0), v(3.0, 0.0), v(0.0, 2.0), v(3.0, 2.0)]).unwrap();
    let ib = IndexBuffer::new(&device, IndexElementSize::SixteenBits, 6, BufferUsage::WriteOnly)
        .unwrap();
    ib.set_data(&[0u16, 1, 2, 1, 3, 2]).unwrap();
    // Element 0 is skipped by the binding's vertex offset; 1..4 are drawn.
    let instances = [
        Instance { offset: [0.0, 0.0], color: Color::new(250, 250, 250, 255) },
        Instance { offset: [5.0, 3.0], color: Color::new(220, 30, 40, 255) },
        Instance { offset: [19.0, 4.0], color: Color::new(30, 200, 60, 255) },
        Instance { offset: [11.0, 17.0], color: Color::new(40, 50, 230, 255) },
    ];
    let declaration = VertexDeclaration::new(&[
        VertexElement::new(
            0,
            VertexElementFormat::Vector2,
            VertexElementUsage::TextureCoordinate,
            1,
        ),
        VertexElement::new(8, VertexElementFormat::Color, VertexElementUsage::Color, 1),
    ])
    .unwrap();
    let ivb = VertexBuffer::new(&device, &declaration, 4, BufferUsage::WriteOnly).unwrap();
    ivb.set_data(&instances).unwrap();
    device
        .set_vertex_buffers(&[
            VertexBufferBinding::new(&quad),
            VertexBufferBinding { buffer: &ivb, vertex_offset: 1, instance_frequency: 1 },
        ])
        .unwrap();
    device.set_indices(Some(&ib)).unwrap();
    device.clear(CLEAR).unwrap();
    effect.current_technique().passes()[0].apply().unwrap();
    device.draw_instanced_primitives(PrimitiveType::TriangleList, 0, 0, 4, 0, 2, 3).unwrap();
    let px = read_back_buffer(&device);
    let p = |x, y| at(&px, W, x, y);
    for inst in &instances[1..] {
        let [x, y] = inst.offset.map(|o| o as i32);
        for (dx, dy) in [(0, 0), (2, 0), (0, 1), (2, 1), (1, 1)] {
            assert_eq!(p(x + dx, y + dy), inst.color, "instance at {x},{y} pixel +{dx},+{dy}");
        }
        assert_eq!(p(x + 3, y), CLEAR, "right of the instance at {x},{y}");
        assert_eq!(p(x, y + 2), CLEAR, "below the instance at {x},{y}");
    }
    assert_eq!(p(0, 0), CLEAR, "element 0 is before the binding's offset");
    let drawn = px.iter().filter(|&&c| c != CLEAR).count();
    assert_eq!(drawn, 3 * 6, "three instances of six pixels, nothing else");
}

#[test]
fn reach_refuses_vertex_texture_fetch() {
    let _v = Validation::new();
    let device = device_with(GraphicsProfile::Reach, params(W, H));
    let vertex = "#version 450\nlayout(set = 0, binding = 0) uniform sampler2D Height;\nlayout(location = 0) in vec3 Position;\nvoid main() { gl_Position = vec4(Position, 1.0) + textureLod(Height, vec2(0.5), 0.0); }\n";
    let r = CustomEffect::new(
        &device,
        &[TechniqueSource {
            name: "T",
            passes: &[PassSource { name: "P", vertex, fragment: SOLID_FRAGMENT }],
        }],
    );
    assert!(matches!(r, Err(XnaError::NotSupported { .. })), "{r:?}");
}

const FETCH_VERTEX: &str = "#version 450
layout(set = 0, binding = 2) uniform sampler2D Heights;
layout(set = 1, binding = 0) uniform Vertex { mat4 World; };
layout(location = 0) in vec3 Position;
void main() {
    // Off the texel centre: point sampling reads texel 1 alone, linear would mix texel 0 in.
    vec4 h = textureLod(Heights, vec2(0.6, 0.5), 0.0);
    gl_Position = World * vec4(Position.xy + h.rg * 255.0, 0.5, 1.0);
}
";

const FETCH_FRAGMENT: &str = "#version 450
layout(set = 2, binding = 0) uniform sampler2D Colors;
layout(location = 0) out vec4 color;
void main() { color = texture(Colors, vec2(0.25, 0.5)); }
";

#[test]
fn the_vertex_stage_samples_with_vertex_sampler_states() {
    let _v = Validation::new();
    let device = device(W, H);
    let effect = CustomEffect::new(
        &device,
        &[TechniqueSource {
            name: "T",
            passes: &[PassSource { name: "P", vertex: FETCH_VERTEX, fragment: FETCH_FRAGMENT }],
        }],
    )
    .unwrap();
    // Texel 0 is the colour, texel 1 the offset in pixels (red: x, green: y).
    let colour = Color::new(200, 60, 90, 255);
    let texture = Texture2D::new(&device, 2, 1).unwrap();
    texture.set_data(&[colour, Color::new(13, 5, 0, 255)]).unwrap();
    effect.parameter("World").unwrap().set_value(pixels_to_clip()).unwrap();
    // The same texture in both stages: one sampled use covering both.
    effect.parameter("Heights").unwrap().set_value(&texture).unwrap();
    effect.parameter("Colors").unwrap().set_value(&texture).unwrap();
    assert_eq!(device.vertex_sampler_state(2).unwrap(), SamplerState::LINEAR_WRAP, "XNA's default");
    device.set_vertex_sampler_state(2, SamplerState::POINT_CLAMP).unwrap();
    let white = Color::new(255, 255, 255, 255);
    let v =
        |x: f32, y: f32| VertexPositionColor { position: Vector3::new(x, y, 0.0), color: white };
    let vb =
        VertexBuffer::with_type::<VertexPositionColor>(&device, 4, BufferUsage::WriteOnly).unwrap();
    vb.set_data(&[v(0.0, 0.0), v(4.0, 0.0), v(0.0, 3.0), v(4.0, 3.0)]).unwrap();
    device.set_vertex_buffer(Some(&vb)).unwrap();
    device.clear(CLEAR).unwrap();
    effect.current_technique().passes()[0].apply().unwrap();
    device.draw_primitives(PrimitiveType::TriangleStrip, 0, 2).unwrap();
    let px = read_back_buffer(&device);
    let p = |x, y| at(&px, W, x, y);
    for (x, y) in [(13, 5), (16, 5), (13, 7), (16, 7)] {
        assert_eq!(p(x, y), colour, "the fetched offset places the quad: {x},{y}");
    }
    for (x, y) in [(12, 5), (17, 6), (14, 4), (14, 8)] {
        assert_eq!(p(x, y), CLEAR, "outside at {x},{y}");
    }
    assert_eq!(px.iter().filter(|&&c| c != CLEAR).count(), 12);
    // The slots: four vertex samplers.
    assert!(matches!(
        device.set_vertex_sampler_state(4, SamplerState::POINT_CLAMP),
        Err(XnaError::ArgumentOutOfRange { param: "index", .. })
    ));
    assert!(matches!(device.vertex_sampler_state(4), Err(XnaError::ArgumentOutOfRange { .. })));
}
