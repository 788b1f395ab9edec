//! One error type for every exception XNA's graphics API can throw.
//!
//! Each variant is an XNA exception; the payload names the parameter (where XNA's exception has
//! one) and carries the message. No public call panics on bad input: it returns one of these.
//! An error caused by another keeps it: [`std::error::Error::source`] of an [`XnaError::Io`] is
//! the `std::io::Error` itself.

use std::fmt;
use std::sync::Arc;

use xnagraph_graph::BackendError;

/// An XNA exception, as a value. The variant names the exception XNA throws for the same
/// misuse; its fields carry the parameter XNA names and the message.
///
/// Non-exhaustive: a later version may name another exception, so a `match` needs a `_` arm.
/// Two errors are equal when they are the same exception with the same parameter and message
/// (an I/O error's cause is compared by its kind and text). `Send + Sync`: an error may cross
/// threads, and a shared cause stays `Clone`.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum XnaError {
    /// `ArgumentNullException`: a required argument was null. Rust has no null references, so
    /// xnagraph raises it where XNA's null would be an empty slice or name (`vertexData`,
    /// `indexData`, `assetName`).
    ArgumentNull {
        /// The parameter that was null.
        param: &'static str,
    },
    /// `ArgumentOutOfRangeException`: a numeric argument outside its allowed range (a negative
    /// size, a level or index past the end).
    ArgumentOutOfRange {
        /// The parameter out of range.
        param: &'static str,
        /// Why it is out of range.
        message: String,
    },
    /// `ArgumentException`: an argument that is invalid for another reason (a region outside a
    /// resource, a slice too short, a NaN where a finite number is needed).
    Argument {
        /// The parameter refused.
        param: &'static str,
        /// Why it is refused.
        message: String,
    },
    /// `NotSupportedException`: the profile or the adapter lacks what the call asks for.
    NotSupported {
        /// What is not supported.
        message: String,
    },
    /// `InvalidOperationException`: the call is not allowed in the device's current state. A
    /// backend failure that XNA has no exception for (a native call failing for another reason
    /// than memory or device loss) is reported as this too.
    InvalidOperation {
        /// Why not.
        message: String,
    },
    /// `InvalidCastException`: a value of one type given where another is required (an
    /// effect parameter set with a value of the wrong type).
    InvalidCast {
        /// What was given and what was required.
        message: String,
    },
    /// `ObjectDisposedException`, naming the disposed object's type.
    ObjectDisposed {
        /// The XNA type name of the disposed object, e.g. `"Texture2D"`.
        object: &'static str,
    },
    /// `OutOfVideoMemoryException`: the backend could not allocate GPU memory.
    OutOfVideoMemory {
        /// What could not be allocated.
        message: String,
    },
    /// `DeviceLostException`: the GPU device was lost or a wait on it timed out. Before the call
    /// returns it, render targets are marked content-lost and the device's `DeviceReset` is
    /// raised; XNA instead throws it from `Present` and resets through `GraphicsDeviceManager`.
    DeviceLost {
        /// What the backend reported.
        message: String,
    },
    /// `IOException` (with its kinds, such as `FileNotFoundException`): reading or writing a
    /// file or stream failed, as .NET's own file and stream calls throw it from XNA's loaders
    /// and `SaveAsPng`. The `std::io::Error` is kept as it was, as the error's
    /// [`source`](std::error::Error::source).
    Io {
        /// What was being read or written.
        message: String,
        /// The I/O error, shared so that the error stays `Clone`.
        source: Arc<std::io::Error>,
    },
    /// `ContentLoadException`: a [`ContentManager`](crate::ContentManager) could not load an
    /// asset (no such file, a file that is not valid XNB, a type it cannot read).
    ContentLoad {
        /// The asset's name, as given to `Load`.
        asset: String,
        /// What is wrong, and where in the file (a byte offset) when the file is at fault.
        message: String,
    },
}

/// The result of every fallible public call.
pub type Result<T> = std::result::Result<T, XnaError>;

impl XnaError {
    pub(crate) fn out_of_range(param: &'static str, message: impl Into<String>) -> Self {
        XnaError::ArgumentOutOfRange { param, message: message.into() }
    }

    pub(crate) fn argument(param: &'static str, message: impl Into<String>) -> Self {
        XnaError::Argument { param, message: message.into() }
    }

    pub(crate) fn not_supported(message: impl Into<String>) -> Self {
        XnaError::NotSupported { message: message.into() }
    }

    pub(crate) fn invalid_operation(message: impl Into<String>) -> Self {
        XnaError::InvalidOperation { message: message.into() }
    }

    /// `Io`: `what` (the file or stream and what was done to it) failed with `error`.
    pub(crate) fn io(what: impl Into<String>, error: std::io::Error) -> Self {
        XnaError::Io { message: what.into(), source: Arc::new(error) }
    }

    /// The message XNA would show, without the parameter.
    pub fn message(&self) -> String {
        match self {
            XnaError::ArgumentNull { .. } => "Value cannot be null.".to_owned(),
            XnaError::ObjectDisposed { object } => {
                format!("Cannot access a disposed object. Object name: '{object}'.")
            }
            XnaError::Io { message, source } => format!("{message}: {source}."),
            XnaError::ContentLoad { asset, message } => {
                format!("Error loading \"{asset}\": {message}.")
            }
            XnaError::ArgumentOutOfRange { message, .. }
            | XnaError::Argument { message, .. }
            | XnaError::NotSupported { message }
            | XnaError::InvalidOperation { message }
            | XnaError::InvalidCast { message }
            | XnaError::OutOfVideoMemory { message }
            | XnaError::DeviceLost { message } => message.clone(),
        }
    }

    /// The parameter the exception names, if any.
    pub fn param(&self) -> Option<&'static str> {
        match self {
            XnaError::ArgumentNull { param }
            | XnaError::ArgumentOutOfRange { param, .. }
            | XnaError::Argument { param, .. } => Some(param),
            _ => None,
        }
    }
}

impl fmt::Display for XnaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self {
            XnaError::ArgumentNull { .. } => "ArgumentNullException",
            XnaError::ArgumentOutOfRange { .. } => "ArgumentOutOfRangeException",
            XnaError::Argument { .. } => "ArgumentException",
            XnaError::NotSupported { .. } => "NotSupportedException",
            XnaError::InvalidOperation { .. } => "InvalidOperationException",
            XnaError::InvalidCast { .. } => "InvalidCastException",
            XnaError::ObjectDisposed { .. } => "ObjectDisposedException",
            XnaError::OutOfVideoMemory { .. } => "OutOfVideoMemoryException",
            XnaError::DeviceLost { .. } => "DeviceLostException",
            XnaError::Io { .. } => "IOException",
            XnaError::ContentLoad { .. } => "ContentLoadException",
        };
        write!(f, "{kind}: {}", self.message())?;
        if let Some(param) = self.param() {
            write!(f, " (Parameter '{param}')")?;
        }
        Ok(())
    }
}

impl std::error::Error for XnaError {
    /// The cause: an [`XnaError::Io`]'s `std::io::Error`; `None` for the others.
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            XnaError::Io { source, .. } => Some(&**source),
            _ => None,
        }
    }
}

impl PartialEq for XnaError {
    /// The same exception, parameter and message (an I/O error's message includes its
    /// cause's text), and for I/O errors the same `std::io::ErrorKind`.
    fn eq(&self, other: &Self) -> bool {
        let kind = |e: &XnaError| match e {
            XnaError::Io { source, .. } => Some(source.kind()),
            _ => None,
        };
        std::mem::discriminant(self) == std::mem::discriminant(other)
            && self.param() == other.param()
            && self.message() == other.message()
            && kind(self) == kind(other)
    }
}

impl Eq for XnaError {}

impl From<BackendError> for XnaError {
    fn from(e: BackendError) -> Self {
        match e {
            BackendError::OutOfMemory(m) => XnaError::OutOfVideoMemory { message: m },
            BackendError::DeviceLost(m) => XnaError::DeviceLost { message: m },
            BackendError::NotSupported(m) => XnaError::NotSupported { message: m },
            BackendError::Native(m) => XnaError::InvalidOperation { message: m },
        }
    }
}

impl From<xnagraph_math::MathError> for XnaError {
    /// A math call's refusal as the same XNA exception (`?` in a game's code).
    fn from(e: xnagraph_math::MathError) -> Self {
        match e {
            xnagraph_math::MathError::ArgumentOutOfRange { param, message } => {
                XnaError::out_of_range(param, message)
            }
            xnagraph_math::MathError::Argument { param, message } => {
                XnaError::argument(param, message)
            }
        }
    }
}
