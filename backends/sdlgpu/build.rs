//! Builds SDL 3.4 from the source the `sdl3-src` crate carries, with one fix applied, and links it
//! statically (what sdl3-sys's `build-from-source-static` did; sdl3-sys now only gives bindings,
//! with `no-link`); or, with the `system` feature, links the system's SDL 3 found through
//! pkg-config.
//!
//! The fix: SDL's Vulkan memory defragmenter (`VULKAN_INTERNAL_DefragmentMemory` in
//! `src/gpu/vulkan/SDL_gpu_vulkan.c`, line 11172 of SDL 3.4.18) copies every mip level of a 3D
//! texture with the base level's depth, past the end of each smaller level: an invalid copy that
//! may write outside the new texture. SDL has no switch to keep a texture from being moved
//! (textures never get dedicated memory, and any block whose free space is split is moved on a
//! later submission), so the line is patched here: each level copies `max(1, depth >> level)`
//! slices. The source is copied into the build directory and patched there; the build fails if
//! the line is not found exactly once, so a newer SDL (which may have fixed it) is noticed and
//! this patch can go.

use std::error::Error;
use std::fs;
use std::path::{Path, PathBuf};

/// The defragmenter's copy depth in SDL 3.4.18, and what replaces it.
const BROKEN: &str =
    "imageCopy.extent.depth = info.type == SDL_GPU_TEXTURETYPE_3D ? info.layer_count_or_depth : 1;";
const FIXED: &str = "imageCopy.extent.depth = info.type == SDL_GPU_TEXTURETYPE_3D ? \
                     SDL_max(1, info.layer_count_or_depth >> srcSubresource->level) : 1;";
const PATCHED_FILE: &str = "src/gpu/vulkan/SDL_gpu_vulkan.c";

fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    fs::create_dir_all(to)?;
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else {
            fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

/// The target systems whose windows are X11 or Wayland windows (winit's list; the same list
/// gates the x11-dl dependency in Cargo.toml).
const X11_WAYLAND_SYSTEMS: [&str; 5] = ["linux", "dragonfly", "freebsd", "netbsd", "openbsd"];

/// The `system` feature: the system's SDL 3, 3.4 or newer, found through pkg-config (its
/// `PKG_CONFIG_PATH`; `SDL3_STATIC=1` links a static library). Such an SDL lacks the
/// defragmenter fix above, which only 3D textures with mip levels meet.
fn link_system_sdl() -> Result<(), Box<dyn Error>> {
    pkg_config::Config::new().atleast_version("3.4.0").probe("sdl3").map_err(|e| {
        format!(
            "the `system` feature links the system's SDL 3 (3.4 or newer), and pkg-config did \
             not find it: {e}"
        )
    })?;
    Ok(())
}

fn main() -> Result<(), Box<dyn Error>> {
    println!("cargo::rerun-if-changed=build.rs");
    // `cfg(x11_wayland)`: the window system code of src/present/platform.rs for X11 and Wayland.
    println!("cargo::rustc-check-cfg=cfg(x11_wayland)");
    let target_os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if X11_WAYLAND_SYSTEMS.contains(&target_os.as_str()) {
        println!("cargo::rustc-cfg=x11_wayland");
    }
    if std::env::var_os("CARGO_FEATURE_SYSTEM").is_some() {
        return link_system_sdl();
    }
    let out = PathBuf::from(std::env::var_os("OUT_DIR").ok_or("OUT_DIR not set")?);
    let source = out.join("SDL");
    if source.exists() {
        fs::remove_dir_all(&source)?;
    }
    copy_tree(Path::new(sdl3_src::SOURCE_DIR), &source)?;

    let file = source.join(PATCHED_FILE);
    let text = fs::read_to_string(&file)?;
    let found = text.matches(BROKEN).count();
    if found != 1 {
        return Err(format!(
            "SDL {}: expected the defragmenter's 3D copy depth line once in {PATCHED_FILE}, found it \
             {found} times; check whether this SDL fixed it and update or drop the patch in \
             backends/sdlgpu/build.rs",
            sdl3_src::VERSION
        )
        .into());
    }
    fs::write(&file, text.replace(BROKEN, FIXED))?;

    // The options sdl3-sys passed for build-from-source-static with only video and GPU.
    let mut config = cmake::Config::new(&source);
    config.define("SDL_EXAMPLES", "OFF").define("SDL_TESTS", "OFF");
    config.define("SDL_REVISION", sdl3_src::REVISION).define("SDL_STATIC", "ON");
    // Only the static library is linked: no shared SDL3 and no SDL3_test library to compile.
    config.define("SDL_SHARED", "OFF").define("SDL_TEST_LIBRARY", "OFF");
    for off in [
        "SDL_AUDIO",
        "SDL_RENDER",
        "SDL_CAMERA",
        "SDL_JOYSTICK",
        "SDL_HAPTIC",
        "SDL_HIDAPI",
        "SDL_POWER",
        "SDL_SENSOR",
        "SDL_DIALOG",
        "SDL_TRAY",
    ] {
        config.define(off, "OFF");
    }
    config.define("SDL_VIDEO", "ON").define("SDL_GPU", "ON");
    let built = config.build();

    let pc = ["lib", "lib64"]
        .iter()
        .map(|dir| built.join(dir).join("pkgconfig/sdl3.pc"))
        .find(|p| p.exists())
        .ok_or("SDL's sdl3.pc not found after the build")?;
    let pc = rpkg_config::PkgConfig::open(&pc)?;
    for link in pc.libs_with_private(true)? {
        match link {
            rpkg_config::Link::SearchLib(path) => {
                println!("cargo::rustc-link-search=native={}", path.display())
            }
            rpkg_config::Link::Lib(lib) if lib == Path::new("SDL3") => {
                println!("cargo::rustc-link-lib=static=SDL3")
            }
            rpkg_config::Link::Lib(lib) => println!("cargo::rustc-link-lib={}", lib.display()),
            _ => {}
        }
    }
    Ok(())
}
