//! The errors XNA's math library raises: the few calls that validate their arguments
//! (projection matrices, the array forms of the transforms, bounding volumes built from no
//! points) return a [`MathError`] where XNA throws. The engine converts it into its `XnaError`
//! of the same kind, so `?` works in a game's code.

use std::fmt;

/// An exception of XNA's math library, as a value. The variant is the exception XNA throws and
/// the payload names the parameter, as `XnaError`'s variants of the same names do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MathError {
    /// `ArgumentOutOfRangeException`: a number outside its range (a projection's field of view
    /// or plane distances).
    ArgumentOutOfRange {
        /// The parameter out of range.
        param: &'static str,
        /// Why it is out of range.
        message: &'static str,
    },
    /// `ArgumentException`: an argument invalid for another reason (a destination slice shorter
    /// than its source, a bounding volume built from no points).
    Argument {
        /// The parameter refused.
        param: &'static str,
        /// Why it is refused.
        message: &'static str,
    },
}

impl fmt::Display for MathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MathError::ArgumentOutOfRange { param, message } => {
                write!(f, "ArgumentOutOfRangeException ({param}): {message}")
            }
            MathError::Argument { param, message } => {
                write!(f, "ArgumentException ({param}): {message}")
            }
        }
    }
}

impl std::error::Error for MathError {}

/// Checks XNA's rule for the array forms of the transforms: the destination holds at least as
/// many elements as the source.
pub(crate) fn check_destination(source: usize, destination: usize) -> Result<(), MathError> {
    if destination < source {
        return Err(MathError::Argument {
            param: "destinationArray",
            message: "the destination array is shorter than the source array",
        });
    }
    Ok(())
}
