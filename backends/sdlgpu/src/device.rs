//! The SDL video subsystem and the GPU device, and where their messages go.
//!
//! A headless device initialises SDL's video subsystem with the offscreen driver (unless
//! `SDL_VIDEO_DRIVER` names another); a device for a window initialises it with the window's
//! own driver (`x11` or `wayland`, see `present`), which must then be the one SDL runs in this
//! process. Either creates a SPIR-V device on SDL's Vulkan driver afterwards, so the instance
//! has the surface extensions of the driver in use. With debug mode on, SDL validates its own
//! calls and loads Khronos' validation layer underneath.
//!
//! Messages: SDL's log output (process-wide) is routed, for warnings and errors, into the
//! [`Diagnostics`] of every live device. SDL installs no debug messenger for the layer, so the
//! layer is told (through its environment settings, set once before SDL first loads Vulkan) to
//! write warnings and errors into a log file of this process; each device reads what was
//! appended since it last looked at every submission and wait and reports each message. Both
//! routes are per process, not per device: a process with one device (each test runs in its
//! own) sees exactly its device's messages.

use std::ffi::{c_char, c_int, c_void, CStr};
use std::io::{Read, Seek, SeekFrom};
use std::path::PathBuf;
use std::sync::{Mutex, Once, OnceLock};

use sdl3_sys::error::SDL_GetError;
use sdl3_sys::gpu::*;
use sdl3_sys::hints::{
    SDL_SetHint, SDL_SetHintWithPriority, SDL_HINT_OVERRIDE, SDL_HINT_VIDEO_DRIVER,
};
use sdl3_sys::init::{SDL_InitSubSystem, SDL_QuitSubSystem, SDL_INIT_VIDEO};
use sdl3_sys::log::*;
use sdl3_sys::properties::*;
use sdl3_sys::video::SDL_GetCurrentVideoDriver;
use xnagraph_graph::{BackendError, Diagnostics};

/// SDL's last error message.
pub(crate) fn sdl_error(what: &str) -> String {
    // SAFETY: SDL_GetError returns a NUL-terminated string owned by SDL (never null).
    let text = unsafe { CStr::from_ptr(SDL_GetError()) }.to_string_lossy().into_owned();
    format!("{what}: {text}")
}

/// The diagnostics of every live device, for SDL's process-wide log callback.
static LISTENERS: Mutex<Vec<Diagnostics>> = Mutex::new(Vec::new());
static ROUTE_LOG: Once = Once::new();
static LAYER_SETTINGS: Once = Once::new();
// A device starts and ends in the process's device turn
// (`xnagraph_graph::backend::device_lifecycle_turn`): SDL's hints and its video subsystem's
// start-up and shut-down are process-wide and not safe to run on two threads at once (a device
// made while another thread's device shut the subsystem down found no GPU driver), and SDL's
// Vulkan devices go through the same loader as the Vulkan backend's.

/// A Vulkan instance of our own, made before SDL's first device and kept for the process.
/// SDL creates and destroys a VkInstance with every GPU device, and the loader loads the
/// driver with each instance and unloads it with the last: on NVIDIA's driver, a hundred
/// devices made one after another on a hundred threads that way ended with SDL's device
/// creation failing ("SDL_HINT_GPU_DRIVER vulkan unsupported!") once a reloaded driver found
/// no room left in the static TLS block. While this instance lives, the loader and the driver
/// stay loaded, and SDL's instances only take references to them. `None` where no Vulkan
/// loader or driver is found: SDL then reports that itself.
static DRIVER_KEEPER: OnceLock<Option<(ash::Entry, ash::Instance)>> = OnceLock::new();

fn keep_driver_loaded() -> Option<(ash::Entry, ash::Instance)> {
    // SAFETY: loading the system's Vulkan loader runs its initialisation only.
    let entry = unsafe { ash::Entry::load() }.ok()?;
    let app = ash::vk::ApplicationInfo::default().api_version(ash::vk::API_VERSION_1_0);
    let info = ash::vk::InstanceCreateInfo::default().application_info(&app);
    // SAFETY: the create info refers to locals alive across the call; the instance is never
    // destroyed (kept with its entry for the life of the process).
    let instance = unsafe { entry.create_instance(&info, None) }.ok()?;
    Some((entry, instance))
}

unsafe extern "C" fn on_log(
    _user: *mut c_void,
    _category: c_int,
    priority: SDL_LogPriority,
    message: *const c_char,
) {
    if message.is_null() {
        return;
    }
    // SAFETY: SDL passes a NUL-terminated message for the duration of the call.
    let text = unsafe { CStr::from_ptr(message) }.to_string_lossy().into_owned();
    let level = if priority.0 >= SDL_LOG_PRIORITY_ERROR.0 {
        tracing::error!(target: "xnagraph_sdlgpu::sdl", "{text}");
        "error"
    } else if priority.0 >= SDL_LOG_PRIORITY_WARN.0 {
        tracing::warn!(target: "xnagraph_sdlgpu::sdl", "{text}");
        "warning"
    } else {
        tracing::debug!(target: "xnagraph_sdlgpu::sdl", "{text}");
        return;
    };
    for d in LISTENERS.lock().unwrap_or_else(|p| p.into_inner()).iter() {
        d.report(format!("SDL {level}: {text}"));
    }
}

/// The file Khronos' validation layer writes this process's messages into.
fn layer_log() -> PathBuf {
    std::env::temp_dir().join(format!("xnagraph-sdlgpu-validation-{}.log", std::process::id()))
}

/// Points the validation layer's output at [`layer_log`], with synchronization validation,
/// before SDL loads Vulkan for the first time (later devices find the settings in place).
fn configure_layer() {
    LAYER_SETTINGS.call_once(|| {
        let path = layer_log();
        // A fresh file: what an earlier process of the same id left is not ours.
        let _ = std::fs::write(&path, b"");
        // Set once, before any SDL call loads Vulkan, from the thread creating the device.
        // Layers from SDK 1.3.250 on read these variables...
        std::env::set_var("VK_KHRONOS_VALIDATION_LOG_FILENAME", &path);
        std::env::set_var("VK_KHRONOS_VALIDATION_DEBUG_ACTION", "VK_DBG_LAYER_ACTION_LOG_MSG");
        std::env::set_var("VK_KHRONOS_VALIDATION_REPORT_FLAGS", "error,warn");
        std::env::set_var("VK_KHRONOS_VALIDATION_VALIDATE_SYNC", "true");
        // ...older ones only a settings file (without it they print to stdout, where no test
        // sees the message), which newer ones read too. One warning is filtered: an effect
        // output without a bound target, which Vulkan defines (the writes are dropped, as XNA
        // drops them) and SDL_gpu cannot avoid (it binds no null colour target).
        let settings =
            std::env::temp_dir().join(format!("xnagraph-sdlgpu-layer-{}.txt", std::process::id()));
        let text = format!(
            "khronos_validation.debug_action = VK_DBG_LAYER_ACTION_LOG_MSG\n\
             khronos_validation.log_filename = {}\n\
             khronos_validation.report_flags = error,warn\n\
             khronos_validation.message_id_filter = \
             UNASSIGNED-CoreValidation-Shader-OutputNotConsumed\n\
             khronos_validation.enables = \
             VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT\n",
            path.display()
        );
        if std::fs::write(&settings, text).is_ok() {
            std::env::set_var("VK_LAYER_SETTINGS_PATH", &settings);
        }
    });
}

/// The SDL GPU device and the video subsystem reference it holds.
pub(crate) struct Gpu {
    pub device: *mut SDL_GPUDevice,
    pub driver: String,
    /// The name of the adapter SDL chose, as SDL reports it (`SDL_PROP_GPU_DEVICE_NAME_STRING`;
    /// empty where SDL reports none).
    pub adapter: String,
    /// The driver resolves into layer 0 of an array or cube texture whatever the resolve layer
    /// (lavapipe as shipped in Mesa 22.3, which the Vulkan backend works around the same way):
    /// a resolve into a layer of such a texture goes through a single-layer texture and a copy.
    pub resolve_ignores_layer: bool,
    pub diagnostics: Diagnostics,
    /// Bytes of the layer's log file already reported (with validation on).
    layer_log_read: Option<u64>,
    /// `SDL_GPU_FILLMODE_LINE` draws lines (the device has Vulkan's fillModeNonSolid).
    pub line_fill: bool,
}

/// Where `fillModeNonSolid` is in Vulkan's `VkPhysicalDeviceFeatures`, 55 `VkBool32`s.
const FILL_MODE_NON_SOLID: usize = 13;

/// An SDL_gpu device on SDL's Vulkan driver taking SPIR-V; with `line_fill`, only on a
/// physical device with `fillModeNonSolid` (null when there is none).
fn create_device(debug_mode: bool, line_fill: bool) -> *mut SDL_GPUDevice {
    let mut features = [0u32; 55];
    features[FILL_MODE_NON_SOLID] = 1;
    let options = SDL_GPUVulkanOptions {
        // Vulkan 1.0, what SDL asks for by default (VK_MAKE_VERSION(1, 0, 0)).
        vulkan_api_version: 1 << 22,
        vulkan_10_physical_device_features: features.as_mut_ptr().cast(),
        ..Default::default()
    };
    // SAFETY: a property set used only for this call and destroyed after it; `options` and
    // `features` outlive the call that reads them.
    unsafe {
        let props = SDL_CreateProperties();
        SDL_SetBooleanProperty(props, SDL_PROP_GPU_DEVICE_CREATE_DEBUGMODE_BOOLEAN, debug_mode);
        SDL_SetBooleanProperty(props, SDL_PROP_GPU_DEVICE_CREATE_SHADERS_SPIRV_BOOLEAN, true);
        SDL_SetStringProperty(props, SDL_PROP_GPU_DEVICE_CREATE_NAME_STRING, c"vulkan".as_ptr());
        if line_fill {
            SDL_SetPointerProperty(
                props,
                SDL_PROP_GPU_DEVICE_CREATE_VULKAN_OPTIONS_POINTER,
                (&options as *const SDL_GPUVulkanOptions).cast_mut().cast(),
            );
        }
        let device = SDL_CreateGPUDeviceWithProperties(props);
        SDL_DestroyProperties(props);
        device
    }
}

/// The video driver SDL is initialised with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Video {
    /// Headless: the offscreen driver, unless `SDL_VIDEO_DRIVER` names another.
    Headless,
    /// A window's driver, which SDL must run (a window of another system cannot be wrapped).
    Driver(&'static CStr),
}

/// The video driver SDL runs in this process, if any.
fn current_video_driver() -> Option<String> {
    // SAFETY: SDL returns a static NUL-terminated name, or null before video initialisation.
    let name = unsafe { SDL_GetCurrentVideoDriver() };
    // SAFETY: checked for null; SDL owns the string.
    (!name.is_null()).then(|| unsafe { CStr::from_ptr(name) }.to_string_lossy().into_owned())
}

impl Gpu {
    pub fn new(debug_mode: bool, video: Video) -> Result<Gpu, BackendError> {
        let turn = xnagraph_graph::native_device::lifecycle_turn();
        DRIVER_KEEPER.get_or_init(keep_driver_loaded);
        ROUTE_LOG.call_once(|| {
            // SAFETY: the callback has SDL's signature and uses no user data.
            unsafe {
                SDL_SetLogOutputFunction(Some(on_log), std::ptr::null_mut());
                SDL_SetLogPriority(SDL_LOG_CATEGORY_GPU.0, SDL_LOG_PRIORITY_WARN);
            }
        });
        if debug_mode {
            configure_layer();
        }
        match video {
            Video::Headless if std::env::var_os("SDL_VIDEO_DRIVER").is_none() => {
                // SAFETY: both strings are NUL-terminated.
                unsafe { SDL_SetHint(SDL_HINT_VIDEO_DRIVER, c"offscreen".as_ptr()) };
            }
            Video::Headless => {}
            Video::Driver(name) => {
                // SAFETY: both strings are NUL-terminated.
                unsafe {
                    SDL_SetHintWithPriority(SDL_HINT_VIDEO_DRIVER, name.as_ptr(), SDL_HINT_OVERRIDE)
                };
            }
        }
        // SAFETY: plain SDL initialisation (reference-counted per subsystem).
        if !unsafe { SDL_InitSubSystem(SDL_INIT_VIDEO) } {
            return Err(BackendError::NotSupported(sdl_error("SDL_InitSubSystem(VIDEO)")));
        }
        if let Video::Driver(name) = video {
            let wanted = name.to_string_lossy();
            let running = current_video_driver().unwrap_or_default();
            if running != wanted {
                // SAFETY: balances the successful SDL_InitSubSystem above.
                unsafe { SDL_QuitSubSystem(SDL_INIT_VIDEO) };
                return Err(BackendError::NotSupported(format!(
                    "SDL's video subsystem runs the {running} driver in this process; a {wanted} \
                     window cannot be presented to (SDL runs one video driver per process)"
                )));
            }
        }
        let layer_log_read =
            debug_mode.then(|| std::fs::metadata(layer_log()).map_or(0, |m| m.len()));
        // Line fill first: SDL silently fills where Vulkan's fillModeNonSolid is missing, so
        // the feature is required of the device, and a device without it is made again
        // without wire frames.
        let mut line_fill = true;
        let mut device = create_device(debug_mode, true);
        if device.is_null() {
            line_fill = false;
            device = create_device(debug_mode, false);
        }
        if device.is_null() {
            let e = sdl_error("SDL_CreateGPUDevice");
            // SAFETY: balances the successful SDL_InitSubSystem above.
            unsafe { SDL_QuitSubSystem(SDL_INIT_VIDEO) };
            return Err(BackendError::NotSupported(e));
        }
        // SAFETY: a live device; the name is a static NUL-terminated string.
        let driver = unsafe {
            let name = SDL_GetGPUDeviceDriver(device);
            if name.is_null() {
                String::new()
            } else {
                CStr::from_ptr(name).to_string_lossy().into_owned()
            }
        };
        // SAFETY: a live device; the name is a NUL-terminated string owned by the property set.
        let adapter = unsafe {
            let name = SDL_GetStringProperty(
                SDL_GetGPUDeviceProperties(device),
                SDL_PROP_GPU_DEVICE_NAME_STRING,
                std::ptr::null(),
            );
            if name.is_null() {
                String::new()
            } else {
                CStr::from_ptr(name).to_string_lossy().into_owned()
            }
        };
        let resolve_ignores_layer = adapter.contains("llvmpipe");
        let diagnostics = Diagnostics::default();
        LISTENERS.lock().unwrap_or_else(|p| p.into_inner()).push(diagnostics.clone());
        let gpu = Gpu {
            device,
            driver,
            adapter,
            resolve_ignores_layer,
            diagnostics,
            layer_log_read,
            line_fill,
        };
        if debug_mode {
            turn.validated_device_made();
        }
        Ok(gpu)
    }

    /// Reports what the validation layer wrote since the last call, one message per report.
    pub fn collect_layer_messages(&mut self) {
        let Some(read) = self.layer_log_read.as_mut() else { return };
        let Ok(mut file) = std::fs::File::open(layer_log()) else { return };
        let mut text = String::new();
        if file.seek(SeekFrom::Start(*read)).is_err() || file.read_to_string(&mut text).is_err() {
            return;
        }
        *read += text.len() as u64;
        // Each message starts at the line's first column ("Validation Error: [" from newer
        // layers, "VUID-…(ERROR / SPEC): msgNum:" from older ones); its details are indented.
        let mut message = String::new();
        for line in text.lines() {
            let starts = !line.starts_with(char::is_whitespace) && !line.trim().is_empty();
            if starts && !message.is_empty() {
                self.diagnostics.report(std::mem::take(&mut message));
            }
            if !line.trim().is_empty() {
                message.push_str(line);
                message.push('\n');
            }
        }
        if !message.is_empty() {
            self.diagnostics.report(message);
        }
    }

    /// Destroys the device and releases the video subsystem.
    ///
    /// # Safety
    /// Every object created from the device has been released and the GPU is idle.
    pub unsafe fn destroy(&mut self) {
        self.collect_layer_messages();
        let turn = xnagraph_graph::native_device::lifecycle_turn();
        // SAFETY: caller's contract; the subsystem reference is the one `new` took.
        unsafe {
            SDL_DestroyGPUDevice(self.device);
            SDL_QuitSubSystem(SDL_INIT_VIDEO);
        }
        if self.layer_log_read.is_some() {
            turn.validated_device_destroyed();
        }
        drop(turn);
        self.collect_layer_messages();
        let mut listeners = LISTENERS.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(i) = listeners.iter().position(|d| d.same_record(&self.diagnostics)) {
            listeners.remove(i);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sdl_warnings_and_errors_reach_the_device_diagnostics() {
        let mut gpu = Gpu::new(true, Video::Headless).expect("SDL_gpu device");
        let text = c"%s".as_ptr();
        // SAFETY: a format string with one string argument.
        unsafe {
            SDL_LogMessage(
                SDL_LOG_CATEGORY_GPU.0,
                SDL_LOG_PRIORITY_ERROR,
                text,
                c"a GPU error".as_ptr(),
            );
            SDL_LogMessage(
                SDL_LOG_CATEGORY_GPU.0,
                SDL_LOG_PRIORITY_INFO,
                text,
                c"not a problem".as_ptr(),
            );
        }
        let messages = gpu.diagnostics.take_messages();
        // SAFETY: nothing was created from the device.
        unsafe { gpu.destroy() };
        assert_eq!(messages, ["SDL error: a GPU error"]);
    }

    #[test]
    fn validation_layer_messages_appended_to_its_log_are_reported_once_each() {
        let mut gpu = Gpu::new(true, Video::Headless).expect("SDL_gpu device");
        let before = gpu.diagnostics.messages_so_far();
        let mut log = std::fs::OpenOptions::new().append(true).open(layer_log()).unwrap();
        use std::io::Write;
        write!(
            log,
            "Validation Error: [ VUID-a ] first\n  detail\nValidation Warning: [ b ] second\n\
             VUID-c(ERROR / SPEC): msgNum: 1 - third\n    Objects: 1\n"
        )
        .unwrap();
        gpu.collect_layer_messages();
        gpu.collect_layer_messages();
        let messages = gpu.diagnostics.take_messages();
        // SAFETY: nothing was created from the device.
        unsafe { gpu.destroy() };
        assert_eq!(before, 0, "a fresh device reported nothing");
        assert_eq!(
            messages,
            [
                "Validation Error: [ VUID-a ] first\n  detail\n",
                "Validation Warning: [ b ] second\n",
                "VUID-c(ERROR / SPEC): msgNum: 1 - third\n    Objects: 1\n"
            ]
        );
    }
}
