//! The glTF files of the 3D sample, generated: a skinned, animated bar (`bar.glb`) and a
//! static scene (`scene.gltf` with `scene.bin` and `checker.png`). The committed files under
//! `samples/content/models/` are this module's output (a test compares them); the engine's
//! glTF tests include this file too, so it uses only `std`.
//!
//! The bar: two boxes 0.4 wide, 1 high, stacked from y = 0; the lower (material "Red", plain
//! red) moves with joint "Base" at the origin, the upper (material "Checker", the texture)
//! with joint "Tip" at y = 1, a child of "Base". Animation "Bend" turns "Tip" about +z by
//! 0°, 90°, 0° at 0, 1, 2 s (linear), and moves "Base" to x = 0.5 from 1.5 s (step);
//! animation "Pulse" scales "Base" along a cubic spline from 1 at 0 s to 1 at 2 s, leaving
//! key 0 with x tangent 1 and reaching key 1 with x tangent −1 (y and z stay 1). The
//! texture is 4×1 texels: blue, blue, green, green, each box face mapped u 0→1 along its
//! width, so a face's left half is blue and its right half green.
//!
//! The scene: node "Root" holding "Ground" (a flat quad 2 wide and deep at y = 0, scaled 2
//! in x, of vertex colour yellow (255, 200, 0), no normals, no indices) and "Pillar" (a box
//! 0.4 × 1 × 0.4 of material "Stone", the texture, given as a matrix translating it to
//! (0.5, 0.5, 0)).

/// The texture's texels, left to right (RGBA).
pub const CHECKER: [[u8; 4]; 4] =
    [[0, 0, 255, 255], [0, 0, 255, 255], [0, 255, 0, 255], [0, 255, 0, 255]];

/// The vertex colour of the scene's ground (RGBA).
pub const GROUND: [u8; 4] = [255, 200, 0, 255];

/// The base colour factor of the bar's lower box.
pub const RED: [f32; 4] = [0.9, 0.1, 0.1, 1.0];

/// The base colour factor and emissive factor of the scene's pillar.
pub const STONE: ([f32; 4], [f32; 3]) = ([0.8, 0.8, 0.8, 1.0], [0.05, 0.05, 0.05]);

/// The buffer, views and accessors of a file being written.
#[derive(Default)]
struct Builder {
    bin: Vec<u8>,
    views: Vec<String>,
    accessors: Vec<String>,
}

impl Builder {
    /// A buffer view of `bytes` (4-byte aligned); `target` 34962 for vertices, 34963 for
    /// indices.
    fn view(&mut self, bytes: &[u8], target: Option<u32>) -> usize {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let target = target.map(|t| format!(",\"target\":{t}")).unwrap_or_default();
        self.views.push(format!(
            "{{\"buffer\":0,\"byteOffset\":{},\"byteLength\":{}{target}}}",
            self.bin.len(),
            bytes.len()
        ));
        self.bin.extend_from_slice(bytes);
        self.views.len() - 1
    }

    /// A float accessor of `width` components per element (`ty` its glTF type).
    fn floats(&mut self, data: &[f32], width: usize, ty: &str, bounds: bool) -> usize {
        let bytes: Vec<u8> = data.iter().flat_map(|v| v.to_le_bytes()).collect();
        let target = if ty == "MAT4" || ty == "SCALAR" { None } else { Some(34962) };
        let view = self.view(&bytes, target);
        let mut extra = String::new();
        if bounds {
            let column = |c: usize| data.iter().skip(c).step_by(width).copied();
            let min: Vec<String> =
                (0..width).map(|c| column(c).fold(f32::MAX, f32::min).to_string()).collect();
            let max: Vec<String> =
                (0..width).map(|c| column(c).fold(f32::MIN, f32::max).to_string()).collect();
            extra = format!(",\"min\":[{}],\"max\":[{}]", min.join(","), max.join(","));
        }
        self.accessor(view, 5126, data.len() / width, ty, &extra)
    }

    /// An accessor of unsigned bytes or shorts (`component` 5121 or 5123).
    fn integers(&mut self, data: &[u16], component: u32, ty: &str, target: u32) -> usize {
        let bytes: Vec<u8> = match component {
            5121 => data.iter().map(|&v| v as u8).collect(),
            _ => data.iter().flat_map(|v| v.to_le_bytes()).collect(),
        };
        let width = if ty == "VEC4" { 4 } else { 1 };
        let view = self.view(&bytes, Some(target));
        self.accessor(view, component, data.len() / width, ty, "")
    }

    fn accessor(
        &mut self,
        view: usize,
        component: u32,
        count: usize,
        ty: &str,
        extra: &str,
    ) -> usize {
        self.accessors.push(format!(
            "{{\"bufferView\":{view},\"componentType\":{component},\"count\":{count},\"type\":\"{ty}\"{extra}}}"
        ));
        self.accessors.len() - 1
    }
}

/// A box's faces: positions, normals, texture coordinates (4 vertices a face) and indices.
struct BoxMesh {
    positions: Vec<f32>,
    normals: Vec<f32>,
    uvs: Vec<f32>,
    indices: Vec<u16>,
}

/// A box of `size` centred on `center`, each face's u running 0→1 left to right as the face
/// is seen from outside, v 0→1 top to bottom.
fn box_mesh(center: [f32; 3], size: [f32; 3]) -> BoxMesh {
    // Each face: its normal, its right and up directions.
    let faces: [([f32; 3], [f32; 3], [f32; 3]); 6] = [
        ([0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]),
        ([0.0, 0.0, -1.0], [-1.0, 0.0, 0.0], [0.0, 1.0, 0.0]),
        ([1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]),
        ([-1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]),
        ([0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, -1.0]),
        ([0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]),
    ];
    let mut m = BoxMesh { positions: vec![], normals: vec![], uvs: vec![], indices: vec![] };
    for (n, r, u) in faces {
        let base = (m.positions.len() / 3) as u16;
        // Top left, top right, bottom left, bottom right.
        for (su, sv) in [(-1.0, 1.0), (1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)] {
            for a in 0..3 {
                let half = size[a] / 2.0;
                m.positions.push(center[a] + (n[a] + r[a] * su + u[a] * sv) * half);
            }
            m.normals.extend_from_slice(&n);
            m.uvs.extend_from_slice(&[(su + 1.0) / 2.0, (1.0 - sv) / 2.0]);
        }
        // Counter-clockwise seen from outside (glTF's front faces).
        m.indices.extend_from_slice(&[base, base + 2, base + 1, base + 1, base + 2, base + 3]);
    }
    m
}

/// A PNG of `width × height` RGBA texels, its image data stored uncompressed.
pub fn png(width: u32, height: u32, rgba: &[[u8; 4]]) -> Vec<u8> {
    fn crc32(bytes: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &b in bytes {
            crc ^= u32::from(b);
            for _ in 0..8 {
                crc = if crc & 1 != 0 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
            }
        }
        !crc
    }
    fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        let start = out.len();
        out.extend_from_slice(kind);
        out.extend_from_slice(data);
        let crc = crc32(&out[start..]);
        out.extend_from_slice(&crc.to_be_bytes());
    }
    let mut raw = Vec::new();
    for row in rgba.chunks(width as usize) {
        raw.push(0); // no filter
        raw.extend(row.iter().flatten());
    }
    let (mut a, mut b) = (1u32, 0u32);
    for &byte in &raw {
        a = (a + u32::from(byte)) % 65521;
        b = (b + a) % 65521;
    }
    let mut zlib = vec![0x78, 0x01];
    let blocks: Vec<&[u8]> = raw.chunks(65535).collect();
    for (i, block) in blocks.iter().enumerate() {
        zlib.push(u8::from(i + 1 == blocks.len()));
        let len = block.len() as u16;
        zlib.extend_from_slice(&len.to_le_bytes());
        zlib.extend_from_slice(&(!len).to_le_bytes());
        zlib.extend_from_slice(block);
    }
    zlib.extend_from_slice(&((b << 16) | a).to_be_bytes());
    let mut out = vec![0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A];
    let mut header = Vec::new();
    header.extend_from_slice(&width.to_be_bytes());
    header.extend_from_slice(&height.to_be_bytes());
    header.extend_from_slice(&[8, 6, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &header);
    chunk(&mut out, b"IDAT", &zlib);
    chunk(&mut out, b"IEND", &[]);
    out
}

/// The checker texture as a PNG.
pub fn checker_png() -> Vec<u8> {
    png(4, 1, &CHECKER)
}

fn list(items: &[String]) -> String {
    items.join(",")
}

fn floats(v: &[f32]) -> String {
    v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",")
}

/// The skinned, animated bar as a `.glb`: JSON and one binary chunk, the texture inside it.
pub fn bar_glb() -> Vec<u8> {
    let mut b = Builder::default();
    let mut primitives = Vec::new();
    for (joint, material) in [(0u16, 0), (1, 1)] {
        let m = box_mesh([0.0, 0.5 + f32::from(joint), 0.0], [0.4, 1.0, 0.4]);
        let n = m.positions.len() / 3;
        let position = b.floats(&m.positions, 3, "VEC3", true);
        let normal = b.floats(&m.normals, 3, "VEC3", false);
        let uv = b.floats(&m.uvs, 2, "VEC2", false);
        let joints: Vec<u16> = (0..n).flat_map(|_| [joint, 0, 0, 0]).collect();
        let joints = b.integers(&joints, 5121, "VEC4", 34962);
        let weights: Vec<f32> = (0..n).flat_map(|_| [1.0, 0.0, 0.0, 0.0]).collect();
        let weights = b.floats(&weights, 4, "VEC4", false);
        let indices = b.integers(&m.indices, 5123, "SCALAR", 34963);
        primitives.push(format!(
            "{{\"attributes\":{{\"POSITION\":{position},\"NORMAL\":{normal},\"TEXCOORD_0\":{uv},\
             \"JOINTS_0\":{joints},\"WEIGHTS_0\":{weights}}},\"indices\":{indices},\"material\":{material}}}"
        ));
    }
    // Inverse bind matrices (column-major): Base at the origin, Tip at y = 1.
    let mut ibm = Vec::new();
    for y in [0.0f32, -1.0] {
        ibm.extend_from_slice(&[
            1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, y, 0.0, 1.0,
        ]);
    }
    let ibm = b.floats(&ibm, 16, "MAT4", false);
    let times = b.floats(&[0.0, 1.0, 2.0], 1, "SCALAR", true);
    let s = std::f32::consts::FRAC_1_SQRT_2;
    let rotations =
        b.floats(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, s, s, 0.0, 0.0, 0.0, 1.0], 4, "VEC4", false);
    let step_times = b.floats(&[0.0, 1.5], 1, "SCALAR", true);
    let translations = b.floats(&[0.0, 0.0, 0.0, 0.5, 0.0, 0.0], 3, "VEC3", false);
    let pulse_times = b.floats(&[0.0, 2.0], 1, "SCALAR", true);
    // In-tangent, value, out-tangent per key.
    let pulse =
        [0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, -1.0, 0.0, 0.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0];
    let pulse = b.floats(&pulse, 3, "VEC3", false);
    let png = checker_png();
    let image_view = b.view(&png, None);
    let red = floats(&RED);
    let json = format!(
        "{{\"asset\":{{\"version\":\"2.0\",\"generator\":\"xnagraph-samples\"}},\"scene\":0,\
         \"scenes\":[{{\"name\":\"Bar scene\",\"nodes\":[0,1]}}],\
         \"nodes\":[{{\"name\":\"Bar\",\"mesh\":0,\"skin\":0}},\
         {{\"name\":\"Base\",\"children\":[2]}},\
         {{\"name\":\"Tip\",\"translation\":[0,1,0]}}],\
         \"meshes\":[{{\"name\":\"Bar\",\"primitives\":[{}]}}],\
         \"skins\":[{{\"name\":\"Arm\",\"joints\":[1,2],\"inverseBindMatrices\":{ibm},\"skeleton\":1}}],\
         \"animations\":[{{\"name\":\"Bend\",\"channels\":[\
         {{\"sampler\":0,\"target\":{{\"node\":2,\"path\":\"rotation\"}}}},\
         {{\"sampler\":1,\"target\":{{\"node\":1,\"path\":\"translation\"}}}}],\
         \"samplers\":[{{\"input\":{times},\"output\":{rotations},\"interpolation\":\"LINEAR\"}},\
         {{\"input\":{step_times},\"output\":{translations},\"interpolation\":\"STEP\"}}]}},\
         {{\"name\":\"Pulse\",\"channels\":[{{\"sampler\":0,\"target\":{{\"node\":1,\"path\":\"scale\"}}}}],\
         \"samplers\":[{{\"input\":{pulse_times},\"output\":{pulse},\"interpolation\":\"CUBICSPLINE\"}}]}}],\
         \"materials\":[{{\"name\":\"Red\",\"pbrMetallicRoughness\":{{\"baseColorFactor\":[{red}]}}}},\
         {{\"name\":\"Checker\",\"pbrMetallicRoughness\":{{\"baseColorTexture\":{{\"index\":0}}}}}}],\
         \"textures\":[{{\"source\":0}}],\
         \"images\":[{{\"bufferView\":{image_view},\"mimeType\":\"image/png\"}}],\
         \"buffers\":[{{\"byteLength\":{}}}],\"bufferViews\":[{}],\"accessors\":[{}]}}",
        list(&primitives),
        b.bin.len(),
        list(&b.views),
        list(&b.accessors),
    );
    glb(json.into_bytes(), b.bin)
}

/// A GLB container of `json` and `bin`, each chunk padded to 4 bytes.
pub fn glb(mut json: Vec<u8>, mut bin: Vec<u8>) -> Vec<u8> {
    while !json.len().is_multiple_of(4) {
        json.push(b' ');
    }
    while !bin.len().is_multiple_of(4) {
        bin.push(0);
    }
    let total = 12 + 8 + json.len() + 8 + bin.len();
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&json);
    out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(&bin);
    out
}

/// The static scene: `scene.gltf`'s text and `scene.bin`'s bytes (its texture is
/// [`checker_png`], saved as `checker.png`).
pub fn scene_gltf() -> (String, Vec<u8>) {
    let mut b = Builder::default();
    // The ground: two triangles without indices, one colour.
    let ground = [
        -1.0, 0.0, -1.0, -1.0, 0.0, 1.0, 1.0, 0.0, -1.0, //
        1.0, 0.0, -1.0, -1.0, 0.0, 1.0, 1.0, 0.0, 1.0f32,
    ];
    let position = b.floats(&ground, 3, "VEC3", true);
    let colors: Vec<f32> = (0..6).flat_map(|_| GROUND.map(|c| f32::from(c) / 255.0)).collect();
    let color = b.floats(&colors, 4, "VEC4", false);
    let ground = format!("{{\"attributes\":{{\"POSITION\":{position},\"COLOR_0\":{color}}}}}");
    let m = box_mesh([0.0, 0.0, 0.0], [0.4, 1.0, 0.4]);
    let position = b.floats(&m.positions, 3, "VEC3", true);
    let normal = b.floats(&m.normals, 3, "VEC3", false);
    let uv = b.floats(&m.uvs, 2, "VEC2", false);
    let indices = b.integers(&m.indices, 5123, "SCALAR", 34963);
    let pillar = format!(
        "{{\"attributes\":{{\"POSITION\":{position},\"NORMAL\":{normal},\"TEXCOORD_0\":{uv}}},\
         \"indices\":{indices},\"material\":0}}"
    );
    let (base, emissive) = STONE;
    let json = format!(
        "{{\"asset\":{{\"version\":\"2.0\",\"generator\":\"xnagraph-samples\"}},\"scene\":0,\
         \"scenes\":[{{\"name\":\"Static scene\",\"nodes\":[0]}}],\
         \"nodes\":[{{\"name\":\"Root\",\"children\":[1,2]}},\
         {{\"name\":\"Ground\",\"mesh\":0,\"scale\":[2,1,1]}},\
         {{\"name\":\"Pillar\",\"mesh\":1,\"matrix\":[1,0,0,0,0,1,0,0,0,0,1,0,0.5,0.5,0,1]}}],\
         \"meshes\":[{{\"name\":\"Ground\",\"primitives\":[{ground}]}},\
         {{\"name\":\"Pillar\",\"primitives\":[{pillar}]}}],\
         \"materials\":[{{\"name\":\"Stone\",\"pbrMetallicRoughness\":{{\"baseColorFactor\":[{}],\
         \"baseColorTexture\":{{\"index\":0}}}},\"emissiveFactor\":[{}]}}],\
         \"textures\":[{{\"source\":0}}],\"images\":[{{\"uri\":\"checker.png\"}}],\
         \"buffers\":[{{\"uri\":\"scene.bin\",\"byteLength\":{}}}],\
         \"bufferViews\":[{}],\"accessors\":[{}]}}\n",
        floats(&base),
        floats(&emissive),
        b.bin.len(),
        list(&b.views),
        list(&b.accessors),
    );
    (json, b.bin)
}

/// The files of `samples/content/models/`, by name.
pub fn files() -> Vec<(&'static str, Vec<u8>)> {
    let (json, bin) = scene_gltf();
    vec![
        ("bar.glb", bar_glb()),
        ("scene.gltf", json.into_bytes()),
        ("scene.bin", bin),
        ("checker.png", checker_png()),
    ]
}
