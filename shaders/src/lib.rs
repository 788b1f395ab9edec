//! The stock effect shaders.
//!
//! GLSL 450 sources live in `shaders/glsl/`, written in SDL_gpu's resource layout (vertex uniforms
//! in set 1, fragment samplers in set 2, fragment uniforms in set 3) so both backends can use one
//! binary. Their SPIR-V in `shaders/spirv/` is committed; `shaders/build.sh --check` rebuilds it
//! with glslc, diffs it against the committed files and runs spirv-val.
//!
//! The stock geometry effects' table lives here too, for both backends: the stages of each
//! [`StockShader`] ([`stock_stages`]) and the vertex attributes its vertex stage reads
//! ([`stock_attributes`]).

use xnagraph_graph::{Attribute, StockShader};

/// One compiled stage.
#[derive(Clone, Copy, Debug)]
pub struct Stage {
    pub name: &'static str,
    spirv: &'static [u8],
}

impl Stage {
    /// The SPIR-V as 32-bit words (copied, so alignment of the embedded bytes never matters).
    pub fn words(&self) -> Vec<u32> {
        self.spirv.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
    }

    pub fn bytes(&self) -> &'static [u8] {
        self.spirv
    }
}

/// SpriteBatch vertex stage, one instance per sprite drawn as a four-vertex strip. Per-instance
/// inputs: origin (vec2, location 0), right edge (vec2, 1), down edge (vec2, 2), texcoords at TL
/// and BR (vec4, 3), depth (float, 4), colour (unorm RGBA8, 5), texture slot (uint, 6), laid out
/// as `xnagraph_graph::SpriteInstance`; uniform block `SpriteTransform { mat4 }` at set 1, binding
/// 0. Outputs the tint (location 0), the texture coordinate (1) and the slot, flat (2).
pub const SPRITE_VERT: Stage =
    Stage { name: "sprite.vert", spirv: include_bytes!("../spirv/sprite.vert.spv") };

/// SpriteBatch fragment stage: combined image sampler at set 2, binding 0; one colour output.
pub const SPRITE_FRAG: Stage =
    Stage { name: "sprite.frag", spirv: include_bytes!("../spirv/sprite.frag.spv") };

/// SpriteBatch fragment stage for a draw of several textures, for a device with
/// `shaderSampledImageArrayNonUniformIndexing`: an array of 16 combined image samplers at set 2,
/// binding 0, indexed non-uniformly by the sprite's slot (clamped to 15); one colour output.
pub const SPRITE_INDEXED_FRAG: Stage = Stage {
    name: "sprite_indexed.frag",
    spirv: include_bytes!("../spirv/sprite_indexed.frag.spv"),
};

/// The same for any device: a switch of constant indices into the array, sampling with explicit
/// derivatives taken before it, so no descriptor-indexing feature is needed (a slot past 15
/// samples the last); one colour output.
pub const SPRITE_BRANCHED_FRAG: Stage = Stage {
    name: "sprite_branched.frag",
    spirv: include_bytes!("../spirv/sprite_branched.frag.spv"),
};

/// Cube-sampling fragment stage for the sprite vertex stage: cube sampler at set 2, binding 0;
/// the lookup direction is the tint's RGB mapped from [0, 1] to [-1, 1]; one colour output, the
/// cube's texel untinted.
pub const CUBE_SAMPLE_FRAG: Stage =
    Stage { name: "cube_sample.frag", spirv: include_bytes!("../spirv/cube_sample.frag.spv") };

/// BasicEffect vertex stage: position (vec3, location 0), colour (vec4, 1), texture coordinate
/// (vec2, 2), normal (vec3, 3); uniform block `BasicUniforms` (448 bytes,
/// `glsl/basic_uniforms.glsl`) at set 1, binding 0. Unlit, per-vertex or per-pixel lighting and
/// fog as XNA's BasicEffect computes them.
pub const BASIC_VERT: Stage =
    Stage { name: "basic.vert", spirv: include_bytes!("../spirv/basic.vert.spv") };

/// BasicEffect fragment stage: combined image sampler at set 2, binding 0; the same
/// `BasicUniforms` block at set 3, binding 0; one colour output.
pub const BASIC_FRAG: Stage =
    Stage { name: "basic.frag", spirv: include_bytes!("../spirv/basic.frag.spv") };

/// AlphaTestEffect vertex stage: position, colour and texture coordinate at locations 0 to 2;
/// uniform block `AlphaTestUniforms` (144 bytes, `glsl/alpha_test_uniforms.glsl`) at set 1.
pub const ALPHA_TEST_VERT: Stage =
    Stage { name: "alpha_test.vert", spirv: include_bytes!("../spirv/alpha_test.vert.spv") };

/// AlphaTestEffect fragment stage: combined image sampler at set 2, binding 0; the same block at
/// set 3; discards by the alpha test; one colour output.
pub const ALPHA_TEST_FRAG: Stage =
    Stage { name: "alpha_test.frag", spirv: include_bytes!("../spirv/alpha_test.frag.spv") };

/// DualTextureEffect vertex stage: position, colour, texture coordinate at locations 0 to 2 and
/// the second texture coordinate at location 4; uniform block `DualTextureUniforms` (128 bytes,
/// `glsl/dual_texture_uniforms.glsl`) at set 1.
pub const DUAL_TEXTURE_VERT: Stage =
    Stage { name: "dual_texture.vert", spirv: include_bytes!("../spirv/dual_texture.vert.spv") };

/// DualTextureEffect fragment stage: combined image samplers at set 2, bindings 0 and 1; the
/// same block at set 3; one colour output.
pub const DUAL_TEXTURE_FRAG: Stage =
    Stage { name: "dual_texture.frag", spirv: include_bytes!("../spirv/dual_texture.frag.spv") };

/// EnvironmentMapEffect vertex stage: position (vec3, location 0), texture coordinate (vec2, 2)
/// and normal (vec3, 3); uniform block `EnvironmentMapUniforms` (400 bytes,
/// `glsl/environment_map_uniforms.glsl`) at set 1. XNA's per-vertex diffuse lighting of one or
/// three lights, the cube map's share with or without the Fresnel term, fog, and the reflected
/// eye vector as the cube map's lookup direction.
pub const ENVIRONMENT_MAP_VERT: Stage = Stage {
    name: "environment_map.vert",
    spirv: include_bytes!("../spirv/environment_map.vert.spv"),
};

/// EnvironmentMapEffect fragment stage: combined image samplers at set 2, binding 0 (`Texture`,
/// 2D) and binding 1 (`EnvironmentMap`, cube); the same block at set 3; one colour output.
pub const ENVIRONMENT_MAP_FRAG: Stage = Stage {
    name: "environment_map.frag",
    spirv: include_bytes!("../spirv/environment_map.frag.spv"),
};

/// The transfers through draws (multisampled sample planes, SDL_gpu's depth/stencil): a triangle
/// covering the whole target from vertices 0 to 2 of a draw without vertex buffers; no
/// resources, no outputs.
pub const FULLSCREEN_VERT: Stage =
    Stage { name: "fullscreen.vert", spirv: include_bytes!("../spirv/fullscreen.vert.spv") };

/// Depth restore for [`FULLSCREEN_VERT`]: `gl_FragDepth` is the texel at the fragment's position
/// of an R32_FLOAT texture (combined image sampler at set 2, binding 0); no colour output.
pub const DEPTH_WRITE_FRAG: Stage =
    Stage { name: "depth_write.frag", spirv: include_bytes!("../spirv/depth_write.frag.spv") };

/// Stencil restore of one bit for [`FULLSCREEN_VERT`]: discards the fragment unless bit `bit`
/// (uniform block `StencilBit { uint }` at set 3, binding 0) of the R8_UNORM texel at its
/// position (set 2, binding 0) is set; no colour output.
pub const STENCIL_WRITE_FRAG: Stage =
    Stage { name: "stencil_write.frag", spirv: include_bytes!("../spirv/stencil_write.frag.spv") };

/// Depth readback for [`FULLSCREEN_VERT`]: the depth texel at the fragment's position (set 2,
/// binding 0) as the one `float` colour output.
pub const DEPTH_READ_FRAG: Stage =
    Stage { name: "depth_read.frag", spirv: include_bytes!("../spirv/depth_read.frag.spv") };

/// Exact 24-bit depth readback for [`FULLSCREEN_VERT`], one candidate per draw: from the depth
/// sampled at the fragment's position (R32_FLOAT at set 2, binding 0), the nearest 24-bit value
/// plus `offset` (uniform block `Candidate { int }` at set 3, binding 0) becomes the fragment's
/// depth (the smallest float at or above c / (2^24 - 1)) and its one `uint` colour output, for a
/// draw whose depth test is EQUAL.
pub const DEPTH_PROBE_FRAG: Stage =
    Stage { name: "depth_probe.frag", spirv: include_bytes!("../spirv/depth_probe.frag.spv") };

/// Stencil readback of one bit for [`FULLSCREEN_VERT`]: outputs `(1 << bit) / 255` as its one
/// `float` colour output (`StencilBit` at set 3, binding 0), for a stencil-tested additive draw.
pub const STENCIL_READ_FRAG: Stage =
    Stage { name: "stencil_read.frag", spirv: include_bytes!("../spirv/stencil_read.frag.spv") };

/// Sample-plane readback's fragment stage (with [`FULLSCREEN_VERT`]): a multisampled image's
/// `sampler2DMS` at set 2, binding 0; drawn over an image of its width and `samples` times its
/// height, it writes sample `y / height` of texel `(x, y mod height)` at `(x, y)`.
pub const SAMPLE_GATHER_FRAG: Stage =
    Stage { name: "sample_gather.frag", spirv: include_bytes!("../spirv/sample_gather.frag.spv") };

/// Sample-plane upload's fragment stage (with [`FULLSCREEN_VERT`], per-sample shading): the
/// planes' `sampler2D` at set 2, binding 0, the target's sample count as specialisation
/// constant 0; sample `s` of texel `(x, y)` takes the planes' texel `(x, y + s * height)`.
pub const SAMPLE_SCATTER_FRAG: Stage = Stage {
    name: "sample_scatter.frag",
    spirv: include_bytes!("../spirv/sample_scatter.frag.spv"),
};

/// [`SAMPLE_SCATTER_FRAG`] laid out for SDL_gpu, which has no specialisation constants: the
/// planes' `sampler2D` at set 2, binding 0, the target's sample count as the `int` of a fragment
/// uniform block (`SampleCount`, set 3, binding 0); with per-sample shading, sample `s` of texel
/// `(x, y)` takes the planes' texel `(x, y + s * height)`.
pub const SAMPLE_SCATTER_SDL_FRAG: Stage = Stage {
    name: "sample_scatter_sdl.frag",
    spirv: include_bytes!("../spirv/sample_scatter_sdl.frag.spv"),
};

/// Multisampled depth readback's fragment stage (with [`FULLSCREEN_VERT`]): the depth aspect's
/// `sampler2DMS` at set 2, binding 0; one float output, sample `y / height` of texel
/// `(x, y mod height)` at `(x, y)`.
pub const DEPTH_GATHER_FRAG: Stage =
    Stage { name: "depth_gather.frag", spirv: include_bytes!("../spirv/depth_gather.frag.spv") };

/// Multisampled stencil readback's fragment stage: the stencil aspect's `usampler2DMS` at set 2,
/// binding 0; one unsigned output, laid out as [`DEPTH_GATHER_FRAG`]'s.
pub const STENCIL_GATHER_FRAG: Stage = Stage {
    name: "stencil_gather.frag",
    spirv: include_bytes!("../spirv/stencil_gather.frag.spv"),
};

/// Multisampled depth upload's fragment stage (per-sample shading): the float planes at set 2,
/// binding 0, the sample count as specialisation constant 0; writes `gl_FragDepth` of sample
/// `s` from the planes' texel `(x, y + s * height)`.
pub const DEPTH_SCATTER_FRAG: Stage =
    Stage { name: "depth_scatter.frag", spirv: include_bytes!("../spirv/depth_scatter.frag.spv") };

/// Multisampled stencil upload's fragment stage (per-sample shading): the unsigned planes at
/// set 2, binding 0, the sample count and a bit as specialisation constants 0 and 1; discards
/// the samples whose planes' byte lacks the bit.
pub const STENCIL_SCATTER_FRAG: Stage = Stage {
    name: "stencil_scatter.frag",
    spirv: include_bytes!("../spirv/stencil_scatter.frag.spv"),
};

/// [`DEPTH_SCATTER_FRAG`] laid out for SDL_gpu: the R32_FLOAT planes at set 2, binding 0, the
/// sample count as the `int` of a fragment uniform block (`SampleCount`, set 3, binding 0);
/// with per-sample shading, writes `gl_FragDepth` of sample `s` from the planes' texel
/// `(x, y + s * height)`.
pub const DEPTH_SCATTER_SDL_FRAG: Stage = Stage {
    name: "depth_scatter_sdl.frag",
    spirv: include_bytes!("../spirv/depth_scatter_sdl.frag.spv"),
};

/// [`STENCIL_SCATTER_FRAG`] laid out for SDL_gpu: the R8_UNORM planes at set 2, binding 0, the
/// sample count and a bit as a fragment uniform block (`SampleBit { int samples; uint bit; }`,
/// set 3, binding 0); with per-sample shading, discards the samples whose planes' byte lacks the
/// bit.
pub const STENCIL_SCATTER_SDL_FRAG: Stage = Stage {
    name: "stencil_scatter_sdl.frag",
    spirv: include_bytes!("../spirv/stencil_scatter_sdl.frag.spv"),
};

/// One colour for [`FULLSCREEN_VERT`]: the push constant `Solid { vec4 color; }` (16 bytes,
/// fragment stage) written to the one colour output, with no resources. The benchmarks' fill
/// probe draws it to measure what covering a target with fragments costs the hardware.
pub const SOLID_FRAG: Stage =
    Stage { name: "solid.frag", spirv: include_bytes!("../spirv/solid.frag.spv") };

/// The `cubes` stress scenario's hand-written reference, vertex stage for one draw per cube:
/// position (vec3, location 0) and normal (vec3, 1); the cube's block `CubeDraw` (224 bytes:
/// World × View × Projection with y flipped, World, its inverse transpose, the diffuse and
/// emissive colours) at set 1, binding 0 (read at a dynamic offset), the shared `CubeScene` (192
/// bytes: ambient, specular, eye position, three directional lights) at binding 1; BasicEffect's
/// per-vertex lighting ([`CUBE_REFERENCE_GLSL`]). Outputs the lit diffuse colour (location 0)
/// and the specular (1).
pub const CUBE_REFERENCE_VERT: Stage = Stage {
    name: "cube_reference.vert",
    spirv: include_bytes!("../spirv/cube_reference.vert.spv"),
};

/// The same for one instanced draw: World's rows (vec4, locations 2 to 5) and the diffuse colour
/// (vec4, 6) per instance; `CubeScene` (256 bytes: View × Projection, then the shared values) at
/// set 1, binding 0; `gl_Position` in XNA's clip space (y up), so the draw flips y with its
/// viewport.
pub const CUBE_REFERENCE_INSTANCED_VERT: Stage = Stage {
    name: "cube_reference_instanced.vert",
    spirv: include_bytes!("../spirv/cube_reference_instanced.vert.spv"),
};

/// The cubes' fragment stage: the lit diffuse colour plus the specular weighted by alpha; no
/// resources; one colour output.
pub const CUBE_REFERENCE_FRAG: Stage = Stage {
    name: "cube_reference.frag",
    spirv: include_bytes!("../spirv/cube_reference.frag.spv"),
};

/// The text of the cubes' vertex stages without their `#version` line (`glsl/cube_reference.glsl`):
/// with `#define CUBE_INSTANCED` before it, the instanced stage in a `CustomEffect`'s layout,
/// which the scenario compiles at run time so that the engine and the reference run one source.
pub const CUBE_REFERENCE_GLSL: &str = include_str!("../glsl/cube_reference.glsl");

/// The text of [`CUBE_REFERENCE_FRAG`] (`glsl/cube_reference.frag`), for the same use.
pub const CUBE_REFERENCE_FRAG_GLSL: &str = include_str!("../glsl/cube_reference.frag");

/// BasicEffect's vertex stage for a merged run of draws: instance `i` reads its own values
/// (`BasicDraw`, [`BASIC_INSTANCE_BYTES`]) from element `i` of a storage buffer at set 0, binding
/// 0, and what the run shares (eye, lights) from the first draw's uniform block at set 1; it hands
/// the instance's diffuse, emissive and specular colours to the fragment stage (locations 5 to
/// 7, flat).
pub const BASIC_INSTANCED_VERT: Stage = Stage {
    name: "basic_instanced.vert",
    spirv: include_bytes!("../spirv/basic_instanced.vert.spv"),
};

/// BasicEffect's fragment stage for a merged run of draws: the instance's material colours
/// from the vertex stage, what the run shares (eye, lights, fog colour) from the first draw's
/// uniform block at set 3; its samplers at set 2 as [`BASIC_FRAG`]'s.
pub const BASIC_INSTANCED_FRAG: Stage = Stage {
    name: "basic_instanced.frag",
    spirv: include_bytes!("../spirv/basic_instanced.frag.spv"),
};

/// Bytes of one instance of a merged run in the instanced stages' storage buffer (`BasicDraw`,
/// std430): the transform, then the floats of BasicEffect's block that are one draw's own
/// ([`xnagraph_graph::BASIC_INSTANCE_PARTS`]), in that order.
pub const BASIC_INSTANCE_BYTES: u64 = 4 * xnagraph_graph::BASIC_INSTANCE_FLOATS as u64;

/// SkinnedEffect vertex stage: BasicEffect's inputs and block (set 1, binding 0) and the bone
/// indices (`uvec4`, location 5) and weights (vec4, location 6); the bones, 72 4×3 matrices as
/// three vec4 each (3456 bytes, `SkinnedBones`), at set 1, binding 1. Skins by one, two or four
/// weights (specialization constants 6 and 7), then runs BasicEffect's vertex stage; the
/// fragment stage is [`BASIC_FRAG`].
pub const SKINNED_VERT: Stage =
    Stage { name: "skinned.vert", spirv: include_bytes!("../spirv/skinned.vert.spv") };

/// Bytes of SkinnedEffect's bone block: 72 bones of three vec4.
pub const BONE_BYTES: u64 = 72 * 3 * 16;

/// The vertex and fragment stages of a stock geometry effect; `instanced`: the stages of a
/// merged run (BasicEffect only; the others have none, and the compiler merges only
/// BasicEffect's draws).
pub fn stock_stages(shader: StockShader, instanced: bool) -> (Stage, Stage) {
    match shader {
        StockShader::Basic if instanced => (BASIC_INSTANCED_VERT, BASIC_INSTANCED_FRAG),
        StockShader::Basic => (BASIC_VERT, BASIC_FRAG),
        StockShader::AlphaTest => (ALPHA_TEST_VERT, ALPHA_TEST_FRAG),
        StockShader::DualTexture => (DUAL_TEXTURE_VERT, DUAL_TEXTURE_FRAG),
        StockShader::Skinned => (SKINNED_VERT, BASIC_FRAG),
        StockShader::EnvironmentMap => (ENVIRONMENT_MAP_VERT, ENVIRONMENT_MAP_FRAG),
    }
}

/// `words` with each boolean specialization constant fixed to its value in `constants` (by
/// `constant_id`; one not named keeps its default): for an API without specialization constants
/// (SDL_gpu), a module equal in meaning to a pipeline made with them. `OpSpecConstantTrue`/`False`
/// become `OpConstantTrue`/`False` and their `SpecId` decorations go, so the module declares no
/// specialization constant and the driver folds the branches on them as on any constant. The
/// stock stages declare only booleans, read directly (no `OpSpecConstantOp`), which
/// `stock_stages_freeze_to_modules_without_specialization_constants` checks.
pub fn specialize(words: &[u32], constants: &[(u32, bool)]) -> Vec<u32> {
    const OP_DECORATE: u32 = 71;
    const DECORATION_SPEC_ID: u32 = 1;
    const OP_CONSTANT_TRUE: u32 = 41;
    const OP_CONSTANT_FALSE: u32 = 42;
    const OP_SPEC_CONSTANT_TRUE: u32 = 48;
    const OP_SPEC_CONSTANT_FALSE: u32 = 49;
    // First pass: the constant id of each decorated result id.
    let mut spec_ids = std::collections::HashMap::new();
    let mut at = 5;
    while at < words.len() {
        let (count, op) = ((words[at] >> 16) as usize, words[at] & 0xffff);
        if op == OP_DECORATE && count == 4 && words[at + 2] == DECORATION_SPEC_ID {
            spec_ids.insert(words[at + 1], words[at + 3]);
        }
        at += count.max(1);
    }
    let mut out = Vec::with_capacity(words.len());
    out.extend_from_slice(&words[..5.min(words.len())]);
    let mut at = 5;
    while at < words.len() {
        let (count, op) = ((words[at] >> 16) as usize, words[at] & 0xffff);
        let end = (at + count.max(1)).min(words.len());
        let instruction = &words[at..end];
        match op {
            OP_DECORATE if count == 4 && instruction[2] == DECORATION_SPEC_ID => {}
            OP_SPEC_CONSTANT_TRUE | OP_SPEC_CONSTANT_FALSE if count == 3 => {
                let default = op == OP_SPEC_CONSTANT_TRUE;
                let value = spec_ids
                    .get(&instruction[2])
                    .and_then(|id| constants.iter().find(|(c, _)| c == id))
                    .map_or(default, |&(_, v)| v);
                let op = if value { OP_CONSTANT_TRUE } else { OP_CONSTANT_FALSE };
                out.extend_from_slice(&[(3 << 16) | op, instruction[1], instruction[2]]);
            }
            _ => out.extend_from_slice(instruction),
        }
        at = end;
    }
    out
}

/// The attribute locations `shader`'s vertex stage declares, and so the only ones a pipeline
/// feeds it.
pub fn stock_attributes(shader: StockShader) -> &'static [Attribute] {
    use Attribute as A;
    match shader {
        StockShader::Basic => &[A::Position, A::Color, A::TextureCoordinate, A::Normal],
        StockShader::AlphaTest => &[A::Position, A::Color, A::TextureCoordinate],
        StockShader::DualTexture => {
            &[A::Position, A::Color, A::TextureCoordinate, A::TextureCoordinate1]
        }
        StockShader::Skinned => &[
            A::Position,
            A::Color,
            A::TextureCoordinate,
            A::Normal,
            A::BlendIndices,
            A::BlendWeight,
        ],
        StockShader::EnvironmentMap => &[A::Position, A::TextureCoordinate, A::Normal],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn committed_spirv_starts_with_the_spirv_magic() {
        for stage in [
            SPRITE_VERT,
            SPRITE_FRAG,
            SPRITE_INDEXED_FRAG,
            SPRITE_BRANCHED_FRAG,
            CUBE_SAMPLE_FRAG,
            BASIC_VERT,
            BASIC_FRAG,
            BASIC_INSTANCED_VERT,
            BASIC_INSTANCED_FRAG,
            ALPHA_TEST_VERT,
            ALPHA_TEST_FRAG,
            DUAL_TEXTURE_VERT,
            DUAL_TEXTURE_FRAG,
            SKINNED_VERT,
            ENVIRONMENT_MAP_VERT,
            ENVIRONMENT_MAP_FRAG,
            FULLSCREEN_VERT,
            DEPTH_WRITE_FRAG,
            STENCIL_WRITE_FRAG,
            DEPTH_READ_FRAG,
            DEPTH_PROBE_FRAG,
            STENCIL_READ_FRAG,
            SAMPLE_GATHER_FRAG,
            SAMPLE_SCATTER_FRAG,
            SAMPLE_SCATTER_SDL_FRAG,
            DEPTH_GATHER_FRAG,
            STENCIL_GATHER_FRAG,
            DEPTH_SCATTER_FRAG,
            STENCIL_SCATTER_FRAG,
            DEPTH_SCATTER_SDL_FRAG,
            STENCIL_SCATTER_SDL_FRAG,
            SOLID_FRAG,
            CUBE_REFERENCE_VERT,
            CUBE_REFERENCE_INSTANCED_VERT,
            CUBE_REFERENCE_FRAG,
        ] {
            assert_eq!(stage.words()[0], 0x0723_0203, "{}", stage.name);
        }
    }

    /// The locations of a stage's `Input` variables that carry a `Location` decoration (the
    /// vertex attributes it reads; built-ins have none).
    fn input_locations(words: &[u32]) -> Vec<u32> {
        const OP_VARIABLE: u32 = 59;
        const OP_DECORATE: u32 = 71;
        const DECORATION_LOCATION: u32 = 30;
        const STORAGE_INPUT: u32 = 1;
        let (mut inputs, mut locations) = (Vec::new(), Vec::new());
        let mut at = 5;
        while at < words.len() {
            let (count, op) = ((words[at] >> 16) as usize, words[at] & 0xffff);
            let operands = &words[at + 1..at + count];
            match op {
                OP_VARIABLE if operands[2] == STORAGE_INPUT => inputs.push(operands[1]),
                OP_DECORATE if operands[1] == DECORATION_LOCATION => {
                    locations.push((operands[0], operands[2]))
                }
                _ => {}
            }
            at += count.max(1);
        }
        let mut read: Vec<u32> =
            locations.into_iter().filter(|(id, _)| inputs.contains(id)).map(|(_, l)| l).collect();
        read.sort_unstable();
        read
    }

    /// Every opcode of `words` after the header.
    fn opcodes(words: &[u32]) -> Vec<u32> {
        let mut ops = Vec::new();
        let mut at = 5;
        while at < words.len() {
            ops.push(words[at] & 0xffff);
            at += ((words[at] >> 16) as usize).max(1);
        }
        ops
    }

    /// Whether `id` is defined by an `OpConstantTrue` in `words`.
    fn defined_true(words: &[u32], id: u32) -> bool {
        let mut at = 5;
        while at < words.len() {
            let count = ((words[at] >> 16) as usize).max(1);
            if words[at] & 0xffff == 41 && count == 3 && words[at + 2] == id {
                return true;
            }
            at += count;
        }
        false
    }

    #[test]
    fn stock_stages_freeze_to_modules_without_specialization_constants() {
        use xnagraph_graph::{StockLighting, StockVariant};
        // OpSpecConstantTrue/False/-/Composite/Op and OpDecorate … SpecId.
        let spec_ops = [48, 49, 50, 51, 52];
        let stocks = [
            (StockShader::Basic, false),
            (StockShader::Basic, true),
            (StockShader::AlphaTest, false),
            (StockShader::DualTexture, false),
            (StockShader::Skinned, false),
            (StockShader::EnvironmentMap, false),
        ];
        for (shader, instanced) in stocks {
            let (vertex, fragment) = stock_stages(shader, instanced);
            for stage in [vertex, fragment] {
                let words = stage.words();
                // The stock stages declare booleans only, read directly.
                let ops = opcodes(&words);
                assert!(!ops.contains(&50) && !ops.contains(&51) && !ops.contains(&52));
                let variant = StockVariant {
                    shader,
                    vertex_color: true,
                    texture: true,
                    lighting: StockLighting::PerPixel,
                    fog: true,
                    alpha_equality: true,
                    weights_per_vertex: 4,
                    fresnel: true,
                    environment_specular: true,
                    one_light: true,
                    instanced,
                };
                let frozen = specialize(&words, &variant.constants());
                let ops = opcodes(&frozen);
                assert!(spec_ops.iter().all(|op| !ops.contains(op)), "{}", stage.name);
                // Each constant the stage declared is now an OpConstantTrue (every option on,
                // per-vertex lighting and two weights off).
                let all_off = StockVariant { shader, ..Default::default() };
                let off = specialize(&words, &all_off.constants());
                let mut at = 5;
                while at < words.len() {
                    let count = ((words[at] >> 16) as usize).max(1);
                    if words[at] & 0xffff == 71 && count == 4 && words[at + 2] == 1 {
                        let on = words[at + 3] != 2 && words[at + 3] != 6;
                        assert_eq!(defined_true(&frozen, words[at + 1]), on, "{}", stage.name);
                        assert!(!defined_true(&off, words[at + 1]), "{}", stage.name);
                    }
                    at += count;
                }
                // The frozen module is valid SPIR-V (spirv-val, which the build's set-up
                // installs with glslc).
                let path = std::env::temp_dir().join(format!(
                    "xnagraph-frozen-{}-{}.spv",
                    std::process::id(),
                    stage.name
                ));
                let bytes: Vec<u8> = frozen.iter().flat_map(|w| w.to_le_bytes()).collect();
                std::fs::write(&path, bytes).unwrap();
                let status = std::process::Command::new("spirv-val")
                    .args(["--target-env", "vulkan1.0"])
                    .arg(&path)
                    .status()
                    .expect("spirv-val runs");
                std::fs::remove_file(&path).unwrap();
                assert!(status.success(), "{}", stage.name);
            }
        }
    }

    #[test]
    fn stock_attributes_are_the_locations_the_vertex_stage_declares() {
        for shader in [
            StockShader::Basic,
            StockShader::AlphaTest,
            StockShader::DualTexture,
            StockShader::Skinned,
            StockShader::EnvironmentMap,
        ] {
            let (vertex, _) = stock_stages(shader, false);
            let mut table: Vec<u32> = stock_attributes(shader).iter().map(|&a| a as u32).collect();
            table.sort_unstable();
            assert_eq!(table, input_locations(&vertex.words()), "{shader:?}");
        }
    }
}
