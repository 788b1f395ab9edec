//! XNA's `ContentManager`: assets loaded by name from `.xnb` files under a root directory,
//! cached by name, and disposed together by `Unload`.
//!
//! In: an asset name (relative, without the `.xnb` extension, `/` or `\` separated) and the
//! type asked for. Out: the shared asset, or a `ContentLoad` error naming the asset and what is
//! wrong. The cache key is the name with `\` made `/`, compared without regard to ASCII case
//! (XNA's and MonoGame's rule), so `Fonts\Title` and `fonts/title` are one asset.
//!
//! An asset may name others (XNA's external references: a material's texture): each is loaded
//! through the same manager, so it is read once and shared with every other asset and load of
//! its name. The names of the assets being read, outermost first, travel with the read (the
//! chain); a reference to a name already in the chain (an asset that references itself,
//! directly or through others) is refused with the chain in the message, and so is a chain
//! deeper than [`MAX_REFERENCE_DEPTH`], so a read never recurses without bound.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::readers::{ContentReader, Object, References};
use super::xnb::{load_error, XnbReader};
use crate::device::GraphicsDevice;
use crate::effects::alpha_test::AlphaTestEffect;
use crate::effects::basic::BasicEffect;
use crate::effects::dual_texture::DualTextureEffect;
use crate::effects::environment_map::EnvironmentMapEffect;
use crate::effects::skinned::SkinnedEffect;
use crate::error::{Result, XnaError};
use crate::event::lock;
use crate::math::{Color, Matrix, Quaternion, Vector2, Vector3, Vector4};
use crate::models::Model;
use crate::resources::buffer::{IndexBuffer, VertexBuffer};
use crate::resources::cube::TextureCube;
use crate::resources::texture::Texture2D;
use crate::resources::texture3d::Texture3D;
use crate::sprites::font::SpriteFont;
use crate::vertex::VertexDeclaration;
use sealed::Sealed;

/// The most assets one load reads through external references, one inside the other (the
/// asset asked for included).
pub(crate) const MAX_REFERENCE_DEPTH: usize = 32;

/// A loaded asset, as the cache holds it.
#[derive(Clone)]
pub enum Cached {
    /// A `Texture2D`.
    Texture2D(Arc<Texture2D>),
    /// A `Texture3D`.
    Texture3D(Arc<Texture3D>),
    /// A `TextureCube`.
    TextureCube(Arc<TextureCube>),
    /// A `SpriteFont`.
    SpriteFont(Arc<SpriteFont>),
    /// A `VertexDeclaration`.
    VertexDeclaration(Arc<VertexDeclaration>),
    /// A `VertexBuffer`.
    VertexBuffer(Arc<VertexBuffer>),
    /// An `IndexBuffer`.
    IndexBuffer(Arc<IndexBuffer>),
    /// A `BasicEffect`.
    BasicEffect(Arc<BasicEffect>),
    /// An `AlphaTestEffect`.
    AlphaTestEffect(Arc<AlphaTestEffect>),
    /// A `DualTextureEffect`.
    DualTextureEffect(Arc<DualTextureEffect>),
    /// A `SkinnedEffect`.
    SkinnedEffect(Arc<SkinnedEffect>),
    /// An `EnvironmentMapEffect`.
    EnvironmentMapEffect(Arc<EnvironmentMapEffect>),
    /// A `Model`.
    Model(Arc<Model>),
    /// An `Int32` (`i32`).
    Int32(Arc<i32>),
    /// A `Single` (`f32`).
    Single(Arc<f32>),
    /// A `Boolean` (`bool`).
    Boolean(Arc<bool>),
    /// A `String`.
    String(Arc<String>),
    /// A `Vector2`.
    Vector2(Arc<Vector2>),
    /// A `Vector3`.
    Vector3(Arc<Vector3>),
    /// A `Vector4`.
    Vector4(Arc<Vector4>),
    /// A `Matrix`.
    Matrix(Arc<Matrix>),
    /// A `Quaternion`.
    Quaternion(Arc<Quaternion>),
    /// A `Color`.
    Color(Arc<Color>),
}

impl Cached {
    fn type_name(&self) -> &'static str {
        match self {
            Cached::Texture2D(_) => Texture2D::TYPE,
            Cached::Texture3D(_) => Texture3D::TYPE,
            Cached::TextureCube(_) => TextureCube::TYPE,
            Cached::SpriteFont(_) => SpriteFont::TYPE,
            Cached::VertexDeclaration(_) => VertexDeclaration::TYPE,
            Cached::VertexBuffer(_) => VertexBuffer::TYPE,
            Cached::IndexBuffer(_) => IndexBuffer::TYPE,
            Cached::BasicEffect(_) => BasicEffect::TYPE,
            Cached::AlphaTestEffect(_) => AlphaTestEffect::TYPE,
            Cached::DualTextureEffect(_) => DualTextureEffect::TYPE,
            Cached::SkinnedEffect(_) => SkinnedEffect::TYPE,
            Cached::EnvironmentMapEffect(_) => EnvironmentMapEffect::TYPE,
            Cached::Model(_) => Model::TYPE,
            Cached::Int32(_) => i32::TYPE,
            Cached::Single(_) => f32::TYPE,
            Cached::Boolean(_) => bool::TYPE,
            Cached::String(_) => String::TYPE,
            Cached::Vector2(_) => Vector2::TYPE,
            Cached::Vector3(_) => Vector3::TYPE,
            Cached::Vector4(_) => Vector4::TYPE,
            Cached::Matrix(_) => Matrix::TYPE,
            Cached::Quaternion(_) => Quaternion::TYPE,
            Cached::Color(_) => Color::TYPE,
        }
    }

    /// `Dispose` of the asset, as `Unload` does (a declaration, an effect and a value hold no
    /// GPU resource of their own here: an effect's textures are assets of their own, disposed
    /// as such; a model's buffers are its own, as XNA's loader records them with the model).
    fn dispose(&self) {
        match self {
            Cached::Texture2D(t) => t.dispose(),
            Cached::Texture3D(t) => t.dispose(),
            Cached::TextureCube(t) => t.dispose(),
            Cached::SpriteFont(f) => f.texture().dispose(),
            Cached::VertexBuffer(b) => b.dispose(),
            Cached::IndexBuffer(b) => b.dispose(),
            Cached::Model(m) => m.dispose_resources(),
            Cached::VertexDeclaration(_)
            | Cached::BasicEffect(_)
            | Cached::AlphaTestEffect(_)
            | Cached::DualTextureEffect(_)
            | Cached::SkinnedEffect(_)
            | Cached::EnvironmentMapEffect(_)
            | Cached::Int32(_)
            | Cached::Single(_)
            | Cached::Boolean(_)
            | Cached::String(_)
            | Cached::Vector2(_)
            | Cached::Vector3(_)
            | Cached::Vector4(_)
            | Cached::Matrix(_)
            | Cached::Quaternion(_)
            | Cached::Color(_) => {}
        }
    }
}

mod sealed {
    /// The crate's side of [`super::Content`]: how a type is taken from what a reader made,
    /// and kept in the cache.
    pub trait Sealed: Sized {
        /// XNA's name of the type, for messages.
        const TYPE: &'static str;
        /// The object, if it is of this type.
        fn take(object: super::Object) -> Option<Self>;
        /// The cached asset, if it is of this type.
        fn cached(asset: &super::Cached) -> Option<std::sync::Arc<Self>>;
        /// The asset as the cache holds it.
        fn cache(asset: &std::sync::Arc<Self>) -> super::Cached;
    }
}

/// A type [`ContentManager::load`] reads from `.xnb` files: [`Texture2D`], [`Texture3D`],
/// [`TextureCube`], [`SpriteFont`], [`VertexDeclaration`], [`VertexBuffer`], [`IndexBuffer`],
/// the effect materials [`BasicEffect`], [`AlphaTestEffect`], [`DualTextureEffect`],
/// [`SkinnedEffect`] and [`EnvironmentMapEffect`],
/// [`Model`], and the values XNA's primitive readers make: `i32` (`Int32`), `f32` (`Single`),
/// `bool` (`Boolean`), [`String`], [`Vector2`], [`Vector3`], [`Vector4`], [`Matrix`],
/// [`Quaternion`] and [`Color`].
pub trait Content: sealed::Sealed {}

/// The [`Content`] impl of a type whose reader's object and cache entry are the variant
/// `$variant` of [`Object`] and [`Cached`]; `$unbox` takes the value out of the object's
/// variant. The type's name in messages is `$variant` (XNA's: `Int32` for `i32`).
macro_rules! content {
    ($ty:ty, $variant:ident, $unbox:expr) => {
        impl sealed::Sealed for $ty {
            const TYPE: &'static str = stringify!($variant);
            fn take(object: Object) -> Option<Self> {
                match object {
                    Object::$variant(value) => Some($unbox(value)),
                    _ => None,
                }
            }
            fn cached(asset: &Cached) -> Option<Arc<Self>> {
                match asset {
                    Cached::$variant(value) => Some(value.clone()),
                    _ => None,
                }
            }
            fn cache(asset: &Arc<Self>) -> Cached {
                Cached::$variant(asset.clone())
            }
        }
        impl Content for $ty {}
    };
}

content!(Texture2D, Texture2D, std::convert::identity);
content!(Texture3D, Texture3D, std::convert::identity);
content!(TextureCube, TextureCube, std::convert::identity);
content!(SpriteFont, SpriteFont, |font: Box<SpriteFont>| *font);
content!(VertexDeclaration, VertexDeclaration, std::convert::identity);
content!(VertexBuffer, VertexBuffer, std::convert::identity);
content!(IndexBuffer, IndexBuffer, std::convert::identity);
content!(BasicEffect, BasicEffect, |effect: Box<BasicEffect>| *effect);
content!(AlphaTestEffect, AlphaTestEffect, |effect: Box<AlphaTestEffect>| *effect);
content!(DualTextureEffect, DualTextureEffect, |effect: Box<DualTextureEffect>| *effect);
content!(SkinnedEffect, SkinnedEffect, |effect: Box<SkinnedEffect>| *effect);
content!(EnvironmentMapEffect, EnvironmentMapEffect, |effect: Box<EnvironmentMapEffect>| *effect);
content!(Model, Model, |model: Box<Model>| *model);
content!(i32, Int32, std::convert::identity);
content!(f32, Single, std::convert::identity);
content!(bool, Boolean, std::convert::identity);
content!(String, String, std::convert::identity);
content!(Vector2, Vector2, std::convert::identity);
content!(Vector3, Vector3, std::convert::identity);
content!(Vector4, Vector4, std::convert::identity);
content!(Matrix, Matrix, std::convert::identity);
content!(Quaternion, Quaternion, std::convert::identity);
content!(Color, Color, std::convert::identity);

/// XNA's `ContentManager`: loads compiled assets (`.xnb` files, as XNA 4.0 and MonoGame write
/// them: uncompressed, LZX or LZ4 compressed) from files under [`Self::root_directory`], for
/// one device.
///
/// `load::<T>(name)` reads `root/name.xnb` once: later loads of the same name (in either
/// slash direction, any ASCII case) return the same shared object, as XNA's cache returns the
/// same instance. [`Self::unload`] disposes every asset loaded and empties the cache; a game
/// still holding one then gets `ObjectDisposed` from it, as in XNA.
///
/// An asset that names others (XNA's `ReadExternalReference`: a material's texture, by a
/// name relative to the directory of the asset being read) loads them through this manager:
/// each is read once and shared, with the other assets that name it and with the game's own
/// loads of its name.
///
/// Where xnagraph differs: assets are shared as `Arc<T>` (XNA hands out the one .NET
/// reference), so a cached `SpriteFont`'s setters need a font of the game's own
/// ([`SpriteFont::from_parts`]), and a cached effect's fields (`World`, ...) are set on an
/// effect of the game's own, made from the loaded one's values; the types read are those of
/// [`Content`] (XNA's textures, `SpriteFont`, the geometry types, the stock effect materials
/// xnagraph has, `Model`, and the primitive and math values), and any other type reader in a
/// file (`SoundEffectReader`, ...) is a `ContentLoad` error naming it. A cached `Model` draws
/// and changes its effects in place, as XNA's, its effects being behind locks
/// ([`crate::ModelEffect`]). `Unload` disposes textures and buffers (a model's too); a
/// `VertexDeclaration` and an effect are plain values here (XNA's are `GraphicsResource`s),
/// with nothing to dispose but the textures they reference, which are assets of their own.
pub struct ContentManager<'d> {
    device: &'d GraphicsDevice,
    root: PathBuf,
    loaded: Mutex<HashMap<String, Cached>>,
    disposed: bool,
}

impl std::fmt::Debug for ContentManager<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ContentManager")
            .field("root_directory", &self.root)
            .field("loaded", &lock(&self.loaded).len())
            .finish()
    }
}

/// A type's name with its indefinite article: "a Texture2D", "an IndexBuffer".
fn with_article(type_name: &str) -> String {
    let vowel = type_name.starts_with(['A', 'E', 'I', 'O', 'U']);
    format!("{} {type_name}", if vowel { "an" } else { "a" })
}

/// The cache key of an asset name: `/` separated, ASCII lower case.
fn key(asset_name: &str) -> String {
    asset_name.replace('\\', "/").to_ascii_lowercase()
}

impl<'d> ContentManager<'d> {
    /// `new ContentManager(services, rootDirectory)`: a manager loading for `device` from
    /// files under `root_directory` (relative to the working directory, or absolute). XNA finds
    /// the device through its service provider; here the manager borrows it, so it cannot
    /// outlive the device.
    pub fn new(device: &'d GraphicsDevice, root_directory: impl Into<PathBuf>) -> Self {
        ContentManager {
            device,
            root: root_directory.into(),
            loaded: Mutex::new(HashMap::new()),
            disposed: false,
        }
    }

    /// `RootDirectory`.
    pub fn root_directory(&self) -> &Path {
        &self.root
    }

    /// Sets `RootDirectory`. As in XNA, refused (`InvalidOperation`) once an asset is loaded:
    /// the cache's names would then mean other files.
    pub fn set_root_directory(&mut self, root_directory: impl Into<PathBuf>) -> Result<()> {
        if !lock(&self.loaded).is_empty() {
            return Err(XnaError::invalid_operation(
                "RootDirectory cannot be changed after a ContentManager has loaded content.",
            ));
        }
        self.root = root_directory.into();
        Ok(())
    }

    /// `Load<T>(assetName)`: the asset `assetName` (the path of its `.xnb` file under the
    /// root directory, without the extension), read on the first load and shared after it.
    ///
    /// An xnagraph extension: a [`Model`] whose `.xnb` file does not exist is read from
    /// `assetName.glb`, else `assetName.gltf`, where one exists ([`Model::from_gltf`], its
    /// errors as `ContentLoad` naming the asset; a build without the `gltf` feature is
    /// `NotSupported` naming it). Its textures belong to the model, not to the cache.
    ///
    /// Errors: an empty name is `ArgumentNull` for `assetName`; a disposed manager is
    /// `ObjectDisposed`; everything else is `ContentLoad` naming the asset and what is wrong:
    /// an absolute name, no such file, a file that is not valid XNB (wrong magic, an unknown
    /// platform or version, a size in the header that is not the file's, data that does not
    /// decompress, a truncated file), an unknown type reader, a number outside XNA 4.0's
    /// enums (`SurfaceFormat`, `VertexElementFormat`, `VertexElementUsage`), a level or buffer
    /// of the wrong size, a model's bone or shared resource reference past its model's bones or
    /// the file's shared resources (or of the wrong type for its place), a resource its
    /// constructor refuses (carrying the constructor's message: a format the texture's kind
    /// cannot hold, such as DXT for a `Texture3D`; a size past the profile's limits; 32-bit
    /// indices on a Reach device), an asset of another type than `T` (also when the name was
    /// loaded before as another type), an external reference that cannot be loaded (carrying
    /// its error) or that names an asset being read (a cycle, the chain of names in the
    /// message), and compiled effect bytecode (XNA's Direct3D effects and MonoGame's, which
    /// xnagraph cannot run: a `CustomEffect` of GLSL or SPIR-V takes their place). Where the file is at fault the message gives the byte offset, in the
    /// file or, for a compressed file, in its decompressed content.
    pub fn load<T: Content>(&self, asset_name: &str) -> Result<Arc<T>> {
        self.load_in::<T>(asset_name, &[])
    }

    /// [`Self::load`] from inside the read of the assets `chain` names (outermost first): an
    /// external reference's load.
    pub(crate) fn load_in<T: Content>(&self, asset_name: &str, chain: &[String]) -> Result<Arc<T>> {
        if self.disposed {
            return Err(XnaError::ObjectDisposed { object: "ContentManager" });
        }
        if asset_name.is_empty() {
            return Err(XnaError::ArgumentNull { param: "assetName" });
        }
        let key = key(asset_name);
        if let Some(cached) = lock(&self.loaded).get(&key) {
            return T::cached(cached).ok_or_else(|| {
                load_error(
                    asset_name,
                    format!(
                        "the asset was loaded as {}, and cannot be loaded as {}",
                        with_article(cached.type_name()),
                        with_article(T::TYPE)
                    ),
                )
            });
        }
        if chain.iter().any(|name| self::key(name) == key) {
            let names: Vec<&str> = chain.iter().map(String::as_str).collect();
            return Err(load_error(
                asset_name,
                format!("the asset references itself: {} -> {asset_name}", names.join(" -> ")),
            ));
        }
        if chain.len() >= MAX_REFERENCE_DEPTH {
            return Err(load_error(
                asset_name,
                format!(
                    "the asset is the {}th of a chain of external references; xnagraph reads \
                     at most {MAX_REFERENCE_DEPTH} assets one inside the other",
                    chain.len() + 1
                ),
            ));
        }
        let asset = Arc::new(self.read_asset::<T>(asset_name, chain)?);
        let mut loaded = lock(&self.loaded);
        // Another thread may have loaded the name meanwhile: the first one stays shared.
        let cached = loaded.entry(key).or_insert_with(|| T::cache(&asset));
        Ok(T::cached(cached).unwrap_or(asset))
    }

    /// Reads a fresh copy of the asset, bypassing the cache (XNA's protected `ReadAsset`).
    fn read_asset<T: Content>(&self, asset_name: &str, chain: &[String]) -> Result<T> {
        // `\` separates folders on every platform, as in XNA's names.
        let normal = asset_name.replace('\\', "/");
        let relative = Path::new(&normal);
        if relative.has_root() || relative.is_absolute() {
            return Err(load_error(
                asset_name,
                "the asset name cannot be an absolute path: name it relative to the root \
                 directory",
            ));
        }
        let path = self.root.join(format!("{normal}.xnb"));
        if T::TYPE == Model::TYPE && !path.exists() {
            if let Some(model) = self.read_gltf(asset_name, &normal)? {
                return T::take(Object::Model(Box::new(model)))
                    .ok_or_else(|| load_error(asset_name, "a glTF file holds a Model"));
            }
        }
        let file = std::fs::read(&path).map_err(|e| {
            load_error(asset_name, format!("the file '{}' cannot be read ({e})", path.display()))
        })?;
        let (header, xnb) = XnbReader::open(asset_name, &file)?;
        let mut chain = chain.to_vec();
        chain.push(asset_name.to_owned());
        let object = ContentReader::new(self, header, xnb, &chain)?.read_asset()?;
        let found = object.type_name();
        T::take(object).ok_or_else(|| {
            load_error(
                asset_name,
                format!("the file holds {}, not {}", with_article(found), with_article(T::TYPE)),
            )
        })
    }

    /// The model of `root/normal.glb`, else `root/normal.gltf`, where either exists (an
    /// xnagraph extension: XNA reads only `.xnb` files).
    fn read_gltf(&self, asset_name: &str, normal: &str) -> Result<Option<Model>> {
        for extension in ["glb", "gltf"] {
            let path = self.root.join(format!("{normal}.{extension}"));
            if !path.exists() {
                continue;
            }
            let bytes = std::fs::read(&path).map_err(|e| {
                load_error(
                    asset_name,
                    format!("the file '{}' cannot be read ({e})", path.display()),
                )
            })?;
            return super::gltf::read_model(self.device, &bytes, path.parent(), asset_name)
                .map(Some);
        }
        Ok(None)
    }

    /// `Unload()`: disposes every asset this manager loaded and forgets them; the next load of
    /// a name reads its file again.
    pub fn unload(&self) {
        let assets: Vec<Cached> = lock(&self.loaded).drain().map(|(_, asset)| asset).collect();
        for asset in assets {
            asset.dispose();
        }
    }

    /// `Dispose()`: [`Self::unload`], then every later `load` is `ObjectDisposed`.
    pub fn dispose(&mut self) {
        self.unload();
        self.disposed = true;
    }
}

/// What the readers see of the manager: its device, and textures loaded through it.
impl References for ContentManager<'_> {
    fn device(&self) -> &GraphicsDevice {
        self.device
    }

    fn texture(&self, name: &str, chain: &[String]) -> Result<Arc<Texture2D>> {
        self.load_in::<Texture2D>(name, chain)
    }

    fn texture_cube(&self, name: &str, chain: &[String]) -> Result<Arc<TextureCube>> {
        self.load_in::<TextureCube>(name, chain)
    }
}
