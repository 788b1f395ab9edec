//! One error type for every exception XNA's graphics API can throw.
//!
//! Each variant is an XNA exception; the payload names the parameter (where XNA's exception has
//! one) and carries the message. No public call panics on bad input: it returns one of these.

use std::fmt;

use xnagraph_graph::BackendError;

/// An XNA exception, as a value. The variant names the exception XNA throws for the same
/// misuse; its fields carry the parameter XNA names and the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum XnaError {
    /// `ArgumentNullException`.
    ArgumentNull {
        /// The parameter that was null.
        param: &'static str,
    },
    /// `ArgumentOutOfRangeException`.
    ArgumentOutOfRange {
        /// The parameter out of range.
        param: &'static str,
        /// Why it is out of range.
        message: String,
    },
    /// `ArgumentException`.
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
    /// `InvalidOperationException`: the call is not allowed in the device's current state.
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
    /// `OutOfVideoMemoryException`.
    OutOfVideoMemory {
        /// What could not be allocated.
        message: String,
    },
    /// `DeviceLostException`: render targets are marked content-lost and `DeviceReset` raised.
    DeviceLost {
        /// What the backend reported.
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

    /// The message XNA would show, without the parameter.
    pub fn message(&self) -> String {
        match self {
            XnaError::ArgumentNull { .. } => "Value cannot be null.".to_owned(),
            XnaError::ObjectDisposed { object } => {
                format!("Cannot access a disposed object. Object name: '{object}'.")
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
        };
        write!(f, "{kind}: {}", self.message())?;
        if let Some(param) = self.param() {
            write!(f, " (Parameter '{param}')")?;
        }
        Ok(())
    }
}

impl std::error::Error for XnaError {}

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
