//! XNA's `ContentManager`: assets loaded by name from `.xnb` files under a root directory,
//! cached by name, and disposed together by `Unload`.
//!
//! In: an asset name (relative, without the `.xnb` extension, `/` or `\` separated) and the
//! type asked for. Out: the shared asset, or a `ContentLoad` error naming the asset and what is
//! wrong. The cache key is the name with `\` made `/`, compared without regard to ASCII case
//! (XNA's and MonoGame's rule), so `Fonts\Title` and `fonts/title` are one asset.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::readers::{ContentReader, Object};
use super::xnb::{load_error, XnbReader};
use crate::device::GraphicsDevice;
use crate::error::{Result, XnaError};
use crate::event::lock;
use crate::resources::texture::Texture2D;
use crate::sprites::font::SpriteFont;

/// A loaded asset, as the cache holds it.
#[derive(Clone)]
pub enum Cached {
    /// A `Texture2D`.
    Texture2D(Arc<Texture2D>),
    /// A `SpriteFont`.
    SpriteFont(Arc<SpriteFont>),
}

impl Cached {
    fn type_name(&self) -> &'static str {
        match self {
            Cached::Texture2D(_) => "Texture2D",
            Cached::SpriteFont(_) => "SpriteFont",
        }
    }

    /// `Dispose` of the asset, as `Unload` does.
    fn dispose(&self) {
        match self {
            Cached::Texture2D(t) => t.dispose(),
            Cached::SpriteFont(f) => f.texture().dispose(),
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

/// A type [`ContentManager::load`] reads from `.xnb` files: [`Texture2D`] and [`SpriteFont`].
pub trait Content: sealed::Sealed {}

impl sealed::Sealed for Texture2D {
    const TYPE: &'static str = "Texture2D";
    fn take(object: Object) -> Option<Self> {
        match object {
            Object::Texture2D(t) => Some(t),
            _ => None,
        }
    }
    fn cached(asset: &Cached) -> Option<Arc<Self>> {
        match asset {
            Cached::Texture2D(t) => Some(t.clone()),
            _ => None,
        }
    }
    fn cache(asset: &Arc<Self>) -> Cached {
        Cached::Texture2D(asset.clone())
    }
}
impl Content for Texture2D {}

impl sealed::Sealed for SpriteFont {
    const TYPE: &'static str = "SpriteFont";
    fn take(object: Object) -> Option<Self> {
        match object {
            Object::SpriteFont(f) => Some(*f),
            _ => None,
        }
    }
    fn cached(asset: &Cached) -> Option<Arc<Self>> {
        match asset {
            Cached::SpriteFont(f) => Some(f.clone()),
            _ => None,
        }
    }
    fn cache(asset: &Arc<Self>) -> Cached {
        Cached::SpriteFont(asset.clone())
    }
}
impl Content for SpriteFont {}

/// The name of the object a reader made, for messages.
fn object_type(object: &Object) -> &'static str {
    match object {
        Object::Texture2D(_) => "Texture2D",
        Object::SpriteFont(_) => "SpriteFont",
        Object::Rectangles(_) => "List<Rectangle>",
        Object::Chars(_) => "List<char>",
        Object::Vectors(_) => "List<Vector3>",
        Object::Rectangle(_) => "Rectangle",
        Object::Char(_) => "char",
        Object::Vector3(_) => "Vector3",
    }
}

/// XNA's `ContentManager`: loads compiled assets (`.xnb` files, as XNA 4.0 and MonoGame write
/// them: uncompressed, LZX or LZ4 compressed) from files under [`Self::root_directory`], for
/// one device.
///
/// `load::<T>(name)` reads `root/name.xnb` once: later loads of the same name (in either
/// slash direction, any ASCII case) return the same shared object, as XNA's cache returns the
/// same instance. [`Self::unload`] disposes every asset loaded and empties the cache; a game
/// still holding one then gets `ObjectDisposed` from it, as in XNA.
///
/// Where xnagraph differs: assets are shared as `Arc<T>` (XNA hands out the one .NET
/// reference), so a cached `SpriteFont`'s setters need a font of the game's own
/// ([`SpriteFont::from_parts`]); the types read are `Texture2D` and `SpriteFont`, and any
/// other type reader in a file is a `ContentLoad` error naming it.
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
    /// Errors: an empty name is `ArgumentNull` for `assetName`; a disposed manager is
    /// `ObjectDisposed`; everything else is `ContentLoad` naming the asset and what is wrong:
    /// an absolute name, no such file, a file that is not valid XNB (wrong magic, an unknown
    /// platform or version, a size in the header that is not the file's, data that does not
    /// decompress, a truncated file), an unknown type reader, a texture format xnagraph cannot
    /// create, an asset of another type than `T` (also when the name was loaded before as
    /// another type). Where the file is at fault the message gives the byte offset, in the
    /// file or, for a compressed file, in its decompressed content.
    pub fn load<T: Content>(&self, asset_name: &str) -> Result<Arc<T>> {
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
                        "the asset was loaded as a {}, and cannot be loaded as a {}",
                        cached.type_name(),
                        T::TYPE
                    ),
                )
            });
        }
        let asset = Arc::new(self.read_asset::<T>(asset_name)?);
        let mut loaded = lock(&self.loaded);
        // Another thread may have loaded the name meanwhile: the first one stays shared.
        let cached = loaded.entry(key).or_insert_with(|| T::cache(&asset));
        Ok(T::cached(cached).unwrap_or(asset))
    }

    /// Reads a fresh copy of the asset, bypassing the cache (XNA's protected `ReadAsset`).
    fn read_asset<T: Content>(&self, asset_name: &str) -> Result<T> {
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
        let file = std::fs::read(&path).map_err(|e| {
            load_error(asset_name, format!("the file '{}' cannot be read ({e})", path.display()))
        })?;
        let (header, xnb) = XnbReader::open(asset_name, &file)?;
        let object = ContentReader::new(self.device, header, xnb)?.read_asset()?;
        let found = object_type(&object);
        T::take(object).ok_or_else(|| {
            load_error(asset_name, format!("the file holds a {found}, not a {}", T::TYPE))
        })
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
