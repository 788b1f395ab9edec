//! The reader against hand-made geometry draws (instance streams, repeats, custom effects'
//! values): each malformed one is an error naming its chunk.

use super::*;

fn draw_record(shader: ShaderRecord) -> DrawRecord {
    DrawRecord {
        shader,
        blend: BlendState::OPAQUE,
        depth_stencil: DepthStencilState::NONE,
        rasterizer: RasterizerState::CULL_NONE,
        sampler: SamplerState::LINEAR_CLAMP,
        texture: 0,
        more_textures: Vec::new(),
        first_sprite: 0,
        sprite_count: 0,
        viewport: Viewport::new(0, 0, 4, 4),
        scissor: Rect::new(0, 0, 4, 4),
        transform: [0.0; 16],
    }
}

/// A geometry draw of 3 vertices from a per-vertex stream of 8-byte vertices (arena bytes
/// 0..32) and `instances` instances from a per-instance stream of 8-byte elements (arena bytes
/// 32..48, two elements) stepping at `frequency`.
fn geometry_record(instances: u32, frequency: u32) -> GeometryRecord {
    use crate::geometry::*;
    let source =
        |binding| Some(AttributeSource { binding, format: VertexFormat::Float2, offset: 0 });
    GeometryRecord {
        layout: VertexLayout {
            bindings: vec![
                BindingLayout { stride: 8, instance_frequency: 0 },
                BindingLayout { stride: 8, instance_frequency: frequency },
            ],
            attributes: [source(0), source(1), None, None, None, None, None],
            custom: Vec::new(),
        },
        primitive: PrimitiveType::TriangleList,
        streams: vec![
            StreamRecord::User { start: 0, end: 32 },
            StreamRecord::User { start: 32, end: 48 },
        ],
        indices: None,
        call: DrawCall::Vertices { first_vertex: 0, vertex_count: 3 },
        instances,
        material: StockMaterial::default(),
        texture2: None,
        bones: Vec::new(),
        custom: None,
        repeats: Vec::new(),
    }
}

fn geometry_flush(draw: DrawRecord, geometry: GeometryRecord, effect: bool) -> Vec<u8> {
    file(|w| {
        target(w);
        if effect {
            let resources = CustomResourcesRecord {
                vertex_samplers: Vec::new(),
                vertex_uniform_bytes: 64,
                fragment_samplers: vec![1],
                fragment_uniform_bytes: 0,
                outputs: 1,
            };
            let e = GeometryEffectRecord {
                key: 0,
                technique: "T".into(),
                pass: "P".into(),
                vertex_glsl: String::new(),
                fragment_glsl: String::new(),
                vertex_spirv: vec![0x0723_0203],
                fragment_spirv: vec![0x0723_0203],
                resources,
            };
            w.chunk(kind::GEOMETRY_EFFECT, &e).unwrap();
        }
        pass_flush(w, vec![OpRecord::Geometry(draw, Box::new(geometry))]);
    })
}

#[test]
fn instanced_draws_read_within_their_instance_streams() {
    let read = |instances, frequency| {
        Capture::from_bytes(&geometry_flush(
            draw_record(ShaderRecord::Basic),
            geometry_record(instances, frequency),
            false,
        ))
    };
    for instances in [1, 2] {
        assert!(read(instances, 1).is_ok(), "{instances} instances of two elements");
    }
    // At frequency 2 two elements serve four instances; at 3, six.
    for (instances, frequency) in [(1, 2), (4, 2), (6, 3)] {
        assert!(read(instances, frequency).is_ok(), "{instances} instances at {frequency}");
    }
    // Ten instances of a per-vertex second stream read its first three elements only.
    assert!(read(10, 0).is_err(), "the second stream holds two vertices, not three");
    for (instances, frequency, says) in [
        (3, 1, "more instances than its instance stream holds"),
        (0, 1, "of 0 instances"),
        (u32::MAX, 1, "instances (1 to"),
        (5, 2, "more instances than its instance stream holds"),
        (7, 3, "more instances than its instance stream holds"),
    ] {
        let e = read(instances, frequency).unwrap_err();
        assert!(e.message.contains(says), "{instances} at {frequency}: {e}");
    }
}

/// Repeats are instances of one instanced BasicEffect draw: a capture holds them only on a draw
/// that can be one, each sharing the draw's lights, eye, fog colour and options.
#[test]
fn repeats_are_read_only_where_they_can_be_instances() {
    use crate::geometry::{StockShader, StockValues, MATERIAL_FLOATS};
    let read = |g: GeometryRecord| {
        Capture::from_bytes(&geometry_flush(draw_record(ShaderRecord::Basic), g, false))
    };
    let values = |fog: f32| {
        let mut block = [0.25; MATERIAL_FLOATS];
        let at = StockShader::Basic.options_at();
        block[at..at + 4].copy_from_slice(&[0.0, 0.0, 0.0, fog]);
        StockValues { transform: [0.5; 16], block }
    };
    let repeated = |repeats: Vec<StockValues>| {
        // Positions only, from the per-vertex stream.
        let mut g = geometry_record(1, 0);
        g.layout.bindings.truncate(1);
        g.layout.attributes[1] = None;
        g.streams.truncate(1);
        g.material.block = values(0.0).block;
        g.repeats = repeats;
        g
    };
    if let Err(e) = read(repeated(vec![values(0.0); 3])) {
        panic!("three repeats of the variant: {e}");
    }
    let e = read(repeated(vec![values(0.0), values(1.0)])).unwrap_err();
    assert!(e.message.contains("repeat 1 has other lights, eye, fog colour or options"), "{e}");
    // A repeat's own values (World, here) may differ; a light's may not.
    let mut moved = values(0.0);
    moved.block[0] = 7.0;
    if let Err(e) = read(repeated(vec![moved])) {
        panic!("a repeat of another World: {e}");
    }
    let mut relit = values(0.0);
    relit.block[60] = 7.0;
    let e = read(repeated(vec![moved, relit])).unwrap_err();
    assert!(e.message.contains("repeat 1 has other lights"), "{e}");
    let mut skinned = repeated(vec![values(0.0)]);
    skinned.material.shader = StockShader::Skinned;
    let e = read(skinned).unwrap_err();
    assert!(e.message.contains("repeats that cannot be instances"), "{e}");
    let mut per_instance = geometry_record(1, 1);
    per_instance.repeats = vec![values(0.0)];
    let e = read(per_instance).unwrap_err();
    assert!(e.message.contains("repeats that cannot be instances"), "{e}");
}

fn custom_geometry(custom: Option<CustomDrawRecord>) -> GeometryRecord {
    let mut g = geometry_record(1, 0);
    g.layout.custom = g
        .layout
        .attributes
        .iter()
        .enumerate()
        .filter_map(|(i, a)| Some((i as u32, (*a)?)))
        .collect();
    g.layout.attributes = [None; crate::geometry::ATTRIBUTES];
    g.streams[1] = StreamRecord::User { start: 32, end: 56 };
    g.custom = custom;
    g
}

fn custom_values(vertex_bytes: usize, samplers: &[(bool, u32)]) -> CustomDrawRecord {
    CustomDrawRecord {
        effect: 0,
        vertex_uniforms: vec![0; vertex_bytes],
        fragment_uniforms: Vec::new(),
        samplers: samplers
            .iter()
            .map(|&(vertex, binding)| CustomSamplerRecord {
                vertex,
                binding,
                texture: 0,
                sampler: SamplerState::POINT_CLAMP,
            })
            .collect(),
    }
}

#[test]
fn a_custom_geometry_draw_must_carry_its_programs_values() {
    let read = |shader, custom, effect| {
        Capture::from_bytes(&geometry_flush(draw_record(shader), custom_geometry(custom), effect))
    };
    let custom = ShaderRecord::CustomGeometry(0);
    let good = read(custom, Some(custom_values(64, &[(false, 1)])), true).unwrap();
    assert_eq!(good.geometry_effects[0].resources.fragment_samplers, vec![1]);
    for (shader, values, effect, says) in [
        (custom, Some(custom_values(60, &[(false, 1)])), true, "not its blocks' sizes"),
        (custom, Some(custom_values(64, &[(true, 1)])), true, "samplers are not its program's"),
        (custom, Some(custom_values(64, &[])), true, "samplers are not its program's"),
        (custom, None, true, "shader and values disagree"),
        (ShaderRecord::Basic, Some(custom_values(64, &[(false, 1)])), true, "disagree"),
        (custom, Some(custom_values(64, &[(false, 1)])), false, "geometry effect 0 used before"),
    ] {
        let e = read(shader, values, effect).unwrap_err();
        assert!(e.message.contains(says), "{says}: {e}");
    }
    // The stock layout's positions with a custom program, or a location twice, are refused.
    let mut g = custom_geometry(Some(custom_values(64, &[(false, 1)])));
    g.layout.custom[1].0 = 0;
    let e = Capture::from_bytes(&geometry_flush(draw_record(custom), g, true)).unwrap_err();
    assert!(e.message.contains("not distinct locations"), "{e}");
}

#[test]
fn a_geometry_effect_of_no_outputs_or_repeated_bindings_is_refused() {
    for (outputs, bindings, says) in
        [(0, vec![1], "0 colour outputs"), (1, vec![2, 2], "fragment sampler bindings [2, 2]")]
    {
        let bytes = file(|w| {
            let resources = CustomResourcesRecord {
                vertex_samplers: Vec::new(),
                vertex_uniform_bytes: 0,
                fragment_samplers: bindings,
                fragment_uniform_bytes: 0,
                outputs,
            };
            let e = GeometryEffectRecord {
                key: 0,
                technique: String::new(),
                pass: String::new(),
                vertex_glsl: String::new(),
                fragment_glsl: String::new(),
                vertex_spirv: Vec::new(),
                fragment_spirv: Vec::new(),
                resources,
            };
            w.chunk(kind::GEOMETRY_EFFECT, &e).unwrap();
        });
        let e = Capture::from_bytes(&bytes).unwrap_err();
        assert_eq!(e.chunk, Some(2), "{e}");
        assert!(e.message.contains(says), "{e}");
    }
}

#[test]
fn a_chunk_of_an_unknown_kind_is_skipped_and_a_5_x_file_is_refused_by_its_version() {
    // A later minor version's additive chunk, between known ones: skipped with a warning.
    let bytes = file(|w| {
        w.chunk(kind::GEOMETRY_EFFECT + 100, &(1u32, "a record of a later format")).unwrap();
        texture(w, TextureDesc::texture_2d(8, 8, 1, SurfaceFormat::Color));
    });
    let capture = Capture::from_bytes(&bytes).unwrap();
    assert_eq!(capture.textures.len(), 2, "the chunk after the unknown one is read");
    // A 5.x file's flushes have another layout: refused at the header, naming its version.
    let mut old = bytes;
    old[8..10].copy_from_slice(&5u16.to_le_bytes());
    old[10..12].copy_from_slice(&0u16.to_le_bytes());
    let e = Capture::from_bytes(&old).unwrap_err();
    assert_eq!((e.offset, e.chunk), (8, None));
    assert!(e.message.contains("format version 5.0; this reader reads 6.x"), "{e}");
}

/// A file whose texture 1 is a 4x4 target of `depth` and `samples`, with a depth snapshot of
/// `bytes` bytes.
fn depth_snapshot(depth: DepthFormat, samples: u32, bytes: usize) -> Vec<u8> {
    file(|w| {
        let mut target = TextureDesc::texture_2d(4, 4, 1, SurfaceFormat::Color);
        target.render_target = Some(RenderTargetDesc {
            depth,
            sample_count: samples,
            usage: RenderTargetUsage::PreserveContents,
            back_buffer: false,
        });
        texture(w, target);
        w.chunk(kind::BLOB, &BlobRecord { id: 0, bytes: vec![0; bytes] }).unwrap();
        // A multisampled target's depth has a chunk kind of its own (3.1 readers skip it).
        let kind = if samples > 1 { kind::SAMPLE_DEPTH_SNAPSHOT } else { kind::DEPTH_SNAPSHOT };
        w.chunk(kind, &DepthSnapshotRecord { texture: 1, blob: 0 }).unwrap();
    })
}

#[test]
fn a_depth_snapshot_holds_an_f32_and_a_stencil_byte_per_sample_texel_of_a_target() {
    // 16 texels: 64 bytes of depth, then 16 of stencil; 4 samples of each for a 4x target.
    let capture = Capture::from_bytes(&depth_snapshot(DepthFormat::Depth24Stencil8, 0, 80));
    assert_eq!(capture.unwrap().depth_snapshot, [DepthSnapshotRecord { texture: 1, blob: 0 }]);
    assert!(Capture::from_bytes(&depth_snapshot(DepthFormat::Depth24, 0, 64)).is_ok());
    assert!(Capture::from_bytes(&depth_snapshot(DepthFormat::Depth24Stencil8, 4, 320)).is_ok());
    for (depth, samples, bytes, fault) in [
        (DepthFormat::Depth24Stencil8, 0, 64, "holds 64 bytes, the depth of texture 1 80"),
        (DepthFormat::Depth24, 0, 80, "holds 80 bytes, the depth of texture 1 64"),
        (DepthFormat::None, 0, 64, "not a single-sample target with depth"),
        (DepthFormat::None, 4, 64, "not a multisampled target with depth"),
        (DepthFormat::Depth24, 4, 64, "holds 64 bytes, the depth of texture 1 256"),
    ] {
        let e = Capture::from_bytes(&depth_snapshot(depth, samples, bytes)).unwrap_err();
        assert!(e.message.contains(fault), "{depth:?} x{samples}: {e}");
        assert_eq!(e.chunk, Some(4), "{e}");
    }
}

/// A file whose texture 1 is a 4x4 target of `format` and `samples`, with a sample snapshot of
/// `layer` of `bytes` bytes.
fn sample_snapshot(format: SurfaceFormat, samples: u32, layer: u32, bytes: usize) -> Vec<u8> {
    file(|w| {
        let mut target = TextureDesc::texture_2d(4, 4, 1, format);
        target.render_target = Some(RenderTargetDesc {
            depth: DepthFormat::None,
            sample_count: samples,
            usage: RenderTargetUsage::PreserveContents,
            back_buffer: false,
        });
        texture(w, target);
        w.chunk(kind::BLOB, &BlobRecord { id: 0, bytes: vec![0; bytes] }).unwrap();
        let record = SampleSnapshotRecord { texture: 1, layer, blob: 0 };
        w.chunk(kind::SAMPLE_SNAPSHOT, &record).unwrap();
    })
}

#[test]
fn each_depth_snapshot_kind_is_refused_for_the_other_kind_of_target() {
    // A single-sample target's depth in the multisampled kind, and the other way round.
    let crossed = |samples: u32, kind: u32| {
        file(|w| {
            let mut target = TextureDesc::texture_2d(4, 4, 1, SurfaceFormat::Color);
            target.render_target = Some(RenderTargetDesc {
                depth: DepthFormat::Depth24,
                sample_count: samples,
                usage: RenderTargetUsage::PreserveContents,
                back_buffer: false,
            });
            texture(w, target);
            let bytes = 64 * samples.max(1) as usize;
            w.chunk(kind::BLOB, &BlobRecord { id: 0, bytes: vec![0; bytes] }).unwrap();
            w.chunk(kind, &DepthSnapshotRecord { texture: 1, blob: 0 }).unwrap();
        })
    };
    let e = Capture::from_bytes(&crossed(0, kind::SAMPLE_DEPTH_SNAPSHOT)).unwrap_err();
    assert!(e.message.contains("not a multisampled target with depth"), "{e}");
    let e = Capture::from_bytes(&crossed(4, kind::DEPTH_SNAPSHOT)).unwrap_err();
    assert!(e.message.contains("not a single-sample target with depth"), "{e}");
}

#[test]
fn a_sample_snapshot_holds_every_sample_plane_of_a_layer_of_a_multisampled_target() {
    // 16 texels of 4 bytes in each of 4 planes.
    let capture = Capture::from_bytes(&sample_snapshot(SurfaceFormat::Color, 4, 0, 256));
    let expected = SampleSnapshotRecord { texture: 1, layer: 0, blob: 0 };
    assert_eq!(capture.unwrap().sample_snapshot, [expected]);
    assert!(Capture::from_bytes(&sample_snapshot(SurfaceFormat::HalfVector4, 4, 0, 512)).is_ok());
    let not_multisampled = "not a layer of a multisampled target";
    for (format, samples, layer, bytes, fault) in [
        (SurfaceFormat::Color, 4, 0, 192, "holds 192 bytes, the sample planes of texture 1 256"),
        (
            SurfaceFormat::HalfVector4,
            4,
            0,
            256,
            "holds 256 bytes, the sample planes of texture 1 512",
        ),
        (SurfaceFormat::Color, 0, 0, 256, not_multisampled),
        (SurfaceFormat::Color, 4, 1, 256, not_multisampled),
    ] {
        let e = Capture::from_bytes(&sample_snapshot(format, samples, layer, bytes)).unwrap_err();
        assert!(e.message.contains(fault), "{format:?} x{samples} layer {layer}: {e}");
        assert_eq!(e.chunk, Some(4), "{e}");
        assert!(e.offset > 0, "the chunk's byte offset: {e}");
    }
}
