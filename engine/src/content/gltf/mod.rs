//! glTF 2.0 models (not XNA, whose content pipeline imports FBX and X files into `.xnb`):
//! `Model::from_gltf`, `Model::from_gltf_slice`, and `ContentManager::load::<Model>` of a name
//! with no `.xnb` file but a `.glb` or `.gltf` one. With the `gltf` feature; without it each is
//! `NotSupported` naming the feature.
//!
//! In: a `.gltf` (JSON, its buffers and images in files beside it or in `data:` URIs) or a
//! `.glb` (JSON and one binary chunk). Out: a [`Model`] made with the engine's own
//! constructors, or an error that says where the file is at fault. The `gltf` crate parses the
//! JSON and the GLB container and checks every index between objects; the rest is read here:
//! `accessor.rs` (typed, bounds-checked reads of accessors), `nodes.rs` (nodes as bones, skins,
//! animations), `mesh.rs` (primitives as parts), `material.rs` (materials as effects, images
//! as textures).
//!
//! Errors: a file that is not glTF, a truncated GLB, an index past its array, an accessor whose
//! bytes lie past its buffer or whose type does not fit its use, counts that do not match,
//! a joint index past its skin, a node that is its own ancestor: `ContentLoad` naming the
//! accessor, mesh, node, skin or animation by index. What glTF allows and xnagraph cannot draw
//! (points and lines, sparse accessors, a skin of more than `SkinnedEffect::MAX_BONES`
//! joints, a texture read through a second coordinate set) is `NotSupported`, named likewise.

#[cfg(feature = "gltf")]
mod accessor;
#[cfg(feature = "gltf")]
mod material;
#[cfg(feature = "gltf")]
mod mesh;
#[cfg(feature = "gltf")]
mod nodes;

use std::path::Path;

use crate::device::GraphicsDevice;
use crate::error::{Result, XnaError};
use crate::models::Model;

impl Model {
    /// Loads a glTF 2.0 model from a `.gltf` or `.glb` file (not XNA); buffers and images
    /// named by relative URIs are read from the file's directory. See
    /// [`Model::from_gltf_slice`] for what the model holds. Errors: a file that cannot be read
    /// is [`XnaError::Io`]; the rest as [`Model::from_gltf_slice`], `ContentLoad` errors
    /// naming the file.
    pub fn from_gltf(device: &GraphicsDevice, path: impl AsRef<Path>) -> Result<Model> {
        let path = path.as_ref();
        let bytes = std::fs::read(path)
            .map_err(|e| XnaError::io(format!("Could not read '{}'", path.display()), e))?;
        read_model(device, &bytes, path.parent(), &path.display().to_string())
    }

    /// Loads a glTF 2.0 model from the bytes of a `.gltf` or `.glb` file (not XNA);
    /// `base_dir` is where relative URIs of buffers and images are found (`None`: the data
    /// must hold them, as a `.glb` or `data:` URIs do).
    ///
    /// What the model holds:
    /// - Bones: bone 0 is the model's root (identity, named after the first scene), and every
    ///   node of the file is a bone under it, parents before children (depth first, the
    ///   nodes without a parent in file order), named by the node. A bone's `Transform` is
    ///   the node's matrix, or its translation, rotation and scale composed as
    ///   [`BonePose::to_matrix`](crate::BonePose::to_matrix): glTF, like XNA, is right-handed
    ///   with Y up, and its column-major matrices read in order are XNA's row-vector ones, so
    ///   nothing is flipped.
    /// - Meshes: one `ModelMesh` per node with a mesh, named by the mesh, under the node's
    ///   bone (a skinned one under the root: see [`crate::ModelMesh::skin`]), one part per
    ///   primitive with its own vertex and index buffer (`BufferUsage::None`, so `GetData`
    ///   reads them back). A vertex holds `Position`, then, where the primitive has them,
    ///   `Normal` (`NORMAL`), `TextureCoordinate` (`TEXCOORD_0`; zeros for a skinned part
    ///   without one, as `SkinnedEffect` samples its texture), `Color` (`COLOR_0`, rounded
    ///   to bytes, straight alpha), and for a skinned node's mesh `BlendIndices` (`Byte4`,
    ///   `JOINTS_0`) and `BlendWeight` (`Vector4`, `WEIGHTS_0`), in that order. Indices are
    ///   16-bit, or 32-bit above 65 536 vertices; a primitive without indices gets `0..n`.
    ///   Each triangle's winding is reversed (glTF's front faces are counter-clockwise,
    ///   XNA's clockwise), so XNA's default `RasterizerState.CullCounterClockwise` keeps the
    ///   file's front faces. The bounding sphere is
    ///   `BoundingSphere.CreateFromPoints` of the mesh's positions.
    /// - Effects: per material, a `BasicEffect` (base colour factor → `DiffuseColor` and
    ///   `Alpha`, base colour texture → `Texture` with `TextureEnabled`, emissive factor →
    ///   `EmissiveColor`, `EnableDefaultLighting` where the primitive has normals,
    ///   `VertexColorEnabled` where it has `COLOR_0`), or for a part of a skinned node a
    ///   `SkinnedEffect` with the same colours (a white 1×1 texture where the material has
    ///   none). Metallic-roughness, normal, occlusion maps, alpha modes and samplers are not
    ///   read: the device's states are the game's, as in XNA. Images are decoded by
    ///   `Texture2D::from_stream` (premultiplied), which needs the image format's feature.
    /// - Skins and animations as data: [`Model::skins`], [`Model::animations`] and
    ///   [`Model::rest_poses`], applied by [`Model::animate_bones`] and
    ///   [`Model::update_skins`].
    ///
    /// Errors: see the module documentation; `ContentLoad` messages name the accessor, mesh
    /// and primitive, node, skin, animation or image at fault. A disposed device is
    /// `ObjectDisposed`; a build without the `gltf` feature is `NotSupported` naming it.
    pub fn from_gltf_slice(
        device: &GraphicsDevice,
        bytes: &[u8],
        base_dir: Option<&Path>,
    ) -> Result<Model> {
        read_model(device, bytes, base_dir, "glTF data")
    }
}

/// The model in `bytes`, errors naming `asset`.
pub(super) fn read_model(
    device: &GraphicsDevice,
    bytes: &[u8],
    base_dir: Option<&Path>,
    asset: &str,
) -> Result<Model> {
    device.shared.check_alive()?;
    #[cfg(feature = "gltf")]
    {
        let file = File::open(bytes, base_dir, asset)?;
        file.model(device)
    }
    #[cfg(not(feature = "gltf"))]
    {
        let _ = (bytes, base_dir, asset);
        Err(XnaError::not_supported(
            "glTF models need the `gltf` feature of xnagraph, which this build lacks.",
        ))
    }
}

#[cfg(feature = "gltf")]
pub(super) use file::File;

#[cfg(feature = "gltf")]
mod file {
    use std::path::{Path, PathBuf};

    use base64::Engine as _;

    use crate::content::xnb::load_error;
    use crate::error::{Result, XnaError};

    /// A parsed glTF file with its buffers' bytes: what every part of the read looks at.
    pub struct File<'a> {
        pub document: gltf::Document,
        pub buffers: Vec<Vec<u8>>,
        pub base_dir: Option<PathBuf>,
        pub asset: &'a str,
    }

    impl<'a> File<'a> {
        /// Parses `bytes` and loads every buffer (the GLB chunk, a `data:` URI or a file
        /// under `base_dir`), each checked against its declared length.
        pub fn open(bytes: &[u8], base_dir: Option<&Path>, asset: &'a str) -> Result<File<'a>> {
            let gltf = gltf::Gltf::from_slice(bytes)
                .map_err(|e| load_error(asset, format!("the file is not valid glTF 2.0 ({e})")))?;
            let mut file = File {
                document: gltf.document,
                buffers: Vec::new(),
                base_dir: base_dir.map(Path::to_path_buf),
                asset,
            };
            let mut blob = gltf.blob;
            for buffer in file.document.buffers() {
                let i = buffer.index();
                let data = match buffer.source() {
                    gltf::buffer::Source::Bin => blob.take().ok_or_else(|| {
                        file.error(format!(
                            "buffer {i} names the GLB binary chunk, which is absent"
                        ))
                    })?,
                    gltf::buffer::Source::Uri(uri) => file.uri(uri, &format!("buffer {i}"))?,
                };
                if data.len() < buffer.length() {
                    return Err(file.error(format!(
                        "buffer {i} holds {} bytes, but declares {}",
                        data.len(),
                        buffer.length()
                    )));
                }
                file.buffers.push(data);
            }
            Ok(file)
        }

        /// A `ContentLoad` error of the file.
        pub fn error(&self, message: impl Into<String>) -> XnaError {
            load_error(self.asset, message)
        }

        /// The bytes `uri` names: a `data:` URI's, or a file's under the base directory.
        pub fn uri(&self, uri: &str, what: &str) -> Result<Vec<u8>> {
            if let Some(data) = uri.strip_prefix("data:") {
                let (_, payload) = data
                    .split_once(";base64,")
                    .ok_or_else(|| self.error(format!("{what}'s data URI is not base64")))?;
                return base64::engine::general_purpose::STANDARD.decode(payload).map_err(|e| {
                    self.error(format!("{what}'s data URI is not valid base64 ({e})"))
                });
            }
            let Some(dir) = &self.base_dir else {
                return Err(self.error(format!(
                    "{what} names the file '{uri}', but the data was given with no directory"
                )));
            };
            let path = dir.join(percent_decoded(uri));
            std::fs::read(&path).map_err(|e| {
                self.error(format!("{what}'s file '{}' cannot be read ({e})", path.display()))
            })
        }
    }

    /// `uri` with `%XX` escapes decoded (glTF URIs are RFC 3986 references).
    fn percent_decoded(uri: &str) -> String {
        let bytes = uri.as_bytes();
        let mut out = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
            match (bytes[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
                (b'%', Some(b)) => {
                    out.push(b);
                    i += 3;
                }
                (b, _) => {
                    out.push(b);
                    i += 1;
                }
            }
        }
        String::from_utf8_lossy(&out).into_owned()
    }
}
