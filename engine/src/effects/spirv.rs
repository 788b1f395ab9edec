//! The one reader of SPIR-V in the engine: a module's instructions read once into what effect
//! reflection asks of them.
//!
//! In: the words of a module, compiled by glslang or given as SPIR-V. Out: a [`Module`] — its entry
//! points, names, types, constants, decorations and global variables, by result id — or a
//! [`Malformed`] saying why the words are no module. It decides nothing about effects: the sprite
//! pipeline's check of an `Effect`'s fragment stage ([`crate::effects::sprite`]) and the reflection
//! of a custom effect's stages ([`crate::effects::custom`]) each read the same [`Module`] for their
//! own rules. Only the instructions they need are kept; every other instruction is skipped by its
//! word count.

use std::collections::HashMap;

// Opcodes of the SPIR-V specification that the reader keeps.
const OP_NAME: u32 = 5;
const OP_MEMBER_NAME: u32 = 6;
const OP_ENTRY_POINT: u32 = 15;
const OP_TYPE_BOOL: u32 = 20;
const OP_TYPE_INT: u32 = 21;
const OP_TYPE_FLOAT: u32 = 22;
const OP_TYPE_VECTOR: u32 = 23;
const OP_TYPE_MATRIX: u32 = 24;
const OP_TYPE_IMAGE: u32 = 25;
const OP_TYPE_SAMPLED_IMAGE: u32 = 27;
const OP_TYPE_ARRAY: u32 = 28;
const OP_TYPE_STRUCT: u32 = 30;
const OP_TYPE_POINTER: u32 = 32;
const OP_CONSTANT: u32 = 43;
const OP_VARIABLE: u32 = 59;
const OP_DECORATE: u32 = 71;
const OP_MEMBER_DECORATE: u32 = 72;

// Decorations.
const DECORATION_ROW_MAJOR: u32 = 4;
const DECORATION_ARRAY_STRIDE: u32 = 6;
const DECORATION_MATRIX_STRIDE: u32 = 7;
const DECORATION_BUILT_IN: u32 = 11;
const DECORATION_LOCATION: u32 = 30;
const DECORATION_BINDING: u32 = 33;
const DECORATION_DESCRIPTOR_SET: u32 = 34;
const DECORATION_OFFSET: u32 = 35;

/// Storage classes.
pub(crate) const STORAGE_UNIFORM_CONSTANT: u32 = 0;
pub(crate) const STORAGE_INPUT: u32 = 1;
pub(crate) const STORAGE_UNIFORM: u32 = 2;
pub(crate) const STORAGE_OUTPUT: u32 = 3;
pub(crate) const STORAGE_PRIVATE: u32 = 6;
const STORAGE_FUNCTION: u32 = 7;

/// The execution model of a fragment stage.
pub(crate) const EXECUTION_MODEL_FRAGMENT: u32 = 4;
/// The dimensionality of a 2D image.
pub(crate) const DIM_2D: u32 = 1;

/// Why words are not a module the reader can read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Malformed {
    /// No header, or not SPIR-V's magic number.
    NotSpirv,
    /// An instruction of no words, or one that runs past the end.
    Truncated,
    /// An instruction the reader keeps lacks an operand it reads.
    Instruction,
}

/// A type, as far as effect reflection needs it (ids name other types).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Type {
    Bool,
    /// A 32-bit integer.
    Int {
        signed: bool,
    },
    /// A 32-bit float.
    Float,
    /// Component type and count.
    Vector(u32, u32),
    /// Column type and count.
    Matrix(u32, u32),
    /// Dimensionality.
    Image(u32),
    /// Image type.
    SampledImage(u32),
    /// Element type and the constant holding the length.
    Array(u32, u32),
    /// Member types.
    Struct(Vec<u32>),
    Pointer {
        storage: u32,
        pointee: u32,
    },
    /// Anything else (another width, a type no effect reads).
    Other,
}

/// The decorations of one id that reflection reads.
#[derive(Clone, Debug, Default)]
pub(crate) struct Decorations {
    pub location: Option<u32>,
    pub set: Option<u32>,
    pub binding: Option<u32>,
    pub built_in: bool,
    pub array_stride: u32,
}

/// The decorations of one member of a struct type.
#[derive(Clone, Debug, Default)]
pub(crate) struct MemberDecorations {
    pub offset: u32,
    pub matrix_stride: u32,
    pub row_major: bool,
}

/// A global variable (one not in the Function storage class).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Variable {
    pub id: u32,
    /// Its pointer type.
    pub pointer: u32,
    pub storage: u32,
}

/// What a module declares, by result id.
#[derive(Debug, Default)]
pub(crate) struct Module {
    /// Execution model and name of each entry point.
    pub entry_points: Vec<(u32, String)>,
    pub names: HashMap<u32, String>,
    pub member_names: HashMap<(u32, u32), String>,
    pub types: HashMap<u32, Type>,
    /// The first word of each constant's value.
    pub constants: HashMap<u32, u32>,
    pub decorations: HashMap<u32, Decorations>,
    pub member_decorations: HashMap<(u32, u32), MemberDecorations>,
    /// In declaration order.
    pub variables: Vec<Variable>,
}

impl Module {
    /// Reads `words`: the five-word header, then every instruction.
    pub fn read(words: &[u32]) -> Result<Module, Malformed> {
        if words.len() < 5 || !xnagraph_graph::effect::is_spirv(words) {
            return Err(Malformed::NotSpirv);
        }
        let mut module = Module::default();
        let mut at = 5;
        while at < words.len() {
            let count = (words[at] >> 16) as usize;
            if count == 0 || at + count > words.len() {
                return Err(Malformed::Truncated);
            }
            module.instruction(words[at] & 0xFFFF, &words[at + 1..at + count])?;
            at += count;
        }
        Ok(module)
    }

    /// Keeps what one instruction of `opcode` with operands `op` declares.
    fn instruction(&mut self, opcode: u32, op: &[u32]) -> Result<(), Malformed> {
        let w = |i: usize| op.get(i).copied().ok_or(Malformed::Instruction);
        let rest = |from: usize| op.get(from..).unwrap_or(&[]);
        match opcode {
            OP_NAME => {
                self.names.insert(w(0)?, string(rest(1)));
            }
            OP_MEMBER_NAME => {
                self.member_names.insert((w(0)?, w(1)?), string(rest(2)));
            }
            OP_ENTRY_POINT => self.entry_points.push((w(0)?, string(rest(2)))),
            OP_TYPE_BOOL => self.ty(w(0)?, Type::Bool),
            OP_TYPE_INT => {
                let ty = if w(1)? == 32 { Type::Int { signed: w(2)? == 1 } } else { Type::Other };
                self.ty(w(0)?, ty);
            }
            OP_TYPE_FLOAT => self.ty(w(0)?, if w(1)? == 32 { Type::Float } else { Type::Other }),
            OP_TYPE_VECTOR => self.ty(w(0)?, Type::Vector(w(1)?, w(2)?)),
            OP_TYPE_MATRIX => self.ty(w(0)?, Type::Matrix(w(1)?, w(2)?)),
            OP_TYPE_IMAGE => self.ty(w(0)?, Type::Image(w(2)?)),
            OP_TYPE_SAMPLED_IMAGE => self.ty(w(0)?, Type::SampledImage(w(1)?)),
            OP_TYPE_ARRAY => self.ty(w(0)?, Type::Array(w(1)?, w(2)?)),
            OP_TYPE_STRUCT => self.ty(w(0)?, Type::Struct(rest(1).to_vec())),
            OP_TYPE_POINTER => self.ty(w(0)?, Type::Pointer { storage: w(1)?, pointee: w(2)? }),
            OP_CONSTANT => {
                self.constants.insert(w(1)?, w(2)?);
            }
            OP_VARIABLE => {
                let storage = w(2)?;
                if storage != STORAGE_FUNCTION {
                    self.variables.push(Variable { id: w(1)?, pointer: w(0)?, storage });
                }
            }
            OP_DECORATE => {
                let d = self.decorations.entry(w(0)?).or_default();
                match w(1)? {
                    DECORATION_LOCATION => d.location = Some(w(2)?),
                    DECORATION_DESCRIPTOR_SET => d.set = Some(w(2)?),
                    DECORATION_BINDING => d.binding = Some(w(2)?),
                    DECORATION_BUILT_IN => d.built_in = true,
                    DECORATION_ARRAY_STRIDE => d.array_stride = w(2)?,
                    _ => {}
                }
            }
            OP_MEMBER_DECORATE => {
                let d = self.member_decorations.entry((w(0)?, w(1)?)).or_default();
                match w(2)? {
                    DECORATION_OFFSET => d.offset = w(3)?,
                    DECORATION_MATRIX_STRIDE => d.matrix_stride = w(3)?,
                    DECORATION_ROW_MAJOR => d.row_major = true,
                    _ => {}
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn ty(&mut self, id: u32, ty: Type) {
        self.types.insert(id, ty);
    }

    /// The type `id` names (`Other` for an id that is no type the reader keeps).
    pub fn type_of(&self, id: u32) -> &Type {
        self.types.get(&id).unwrap_or(&Type::Other)
    }

    /// The name `id` was given (empty without one).
    pub fn name(&self, id: u32) -> String {
        self.names.get(&id).cloned().unwrap_or_default()
    }

    /// The number of 32-bit float components of `id`, a float or a vector of floats.
    pub fn float_components(&self, id: u32) -> Option<u32> {
        match *self.type_of(id) {
            Type::Float => Some(1),
            Type::Vector(c, n) if *self.type_of(c) == Type::Float => Some(n),
            _ => None,
        }
    }

    /// The pointee type of `variable`; `None` when its type is not a pointer.
    pub fn pointee(&self, variable: &Variable) -> Option<u32> {
        match *self.type_of(variable.pointer) {
            Type::Pointer { pointee, .. } => Some(pointee),
            _ => None,
        }
    }
}

/// A literal string operand (NUL-terminated, packed little-endian into words).
fn string(words: &[u32]) -> String {
    let bytes: Vec<u8> =
        words.iter().flat_map(|w| w.to_le_bytes()).take_while(|&b| b != 0).collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: [u32; 5] = [xnagraph_graph::effect::SPIRV_MAGIC, 0x0001_0000, 0, 16, 0];

    /// A module of the header and `instructions`, each an opcode and its operands.
    fn module(instructions: &[(u32, &[u32])]) -> Vec<u32> {
        let mut words = HEADER.to_vec();
        for &(opcode, operands) in instructions {
            words.push(((operands.len() as u32 + 1) << 16) | opcode);
            words.extend_from_slice(operands);
        }
        words
    }

    #[test]
    fn a_module_is_read_into_its_types_decorations_and_variables() {
        let main = u32::from_le_bytes(*b"main");
        let words = module(&[
            (OP_ENTRY_POINT, &[EXECUTION_MODEL_FRAGMENT, 1, main, 0]),
            (OP_NAME, &[9, u32::from_le_bytes(*b"tint"), 0]),
            (OP_DECORATE, &[9, DECORATION_LOCATION, 3]),
            (OP_TYPE_FLOAT, &[2, 32]),
            (OP_TYPE_VECTOR, &[3, 2, 4]),
            (OP_TYPE_POINTER, &[4, STORAGE_INPUT, 3]),
            (OP_VARIABLE, &[4, 9, STORAGE_INPUT]),
            (OP_VARIABLE, &[4, 10, STORAGE_FUNCTION]),
            (0x1234, &[1, 2, 3]),
        ]);
        let m = Module::read(&words).unwrap();
        assert_eq!(m.entry_points, [(EXECUTION_MODEL_FRAGMENT, "main".to_owned())]);
        assert_eq!(m.name(9), "tint");
        assert_eq!(m.decorations[&9].location, Some(3));
        assert_eq!(m.variables.len(), 1, "a Function variable is no interface");
        let pointee = m.pointee(&m.variables[0]);
        assert_eq!(pointee.and_then(|p| m.float_components(p)), Some(4));
        assert_eq!(*m.type_of(77), Type::Other);
    }

    #[test]
    fn malformed_words_are_refused_by_kind() {
        assert_eq!(Module::read(&HEADER[..4]).unwrap_err(), Malformed::NotSpirv);
        let mut swapped = HEADER;
        swapped[0] = swapped[0].swap_bytes();
        assert_eq!(Module::read(&swapped).unwrap_err(), Malformed::NotSpirv);
        let mut past_the_end = module(&[(OP_TYPE_FLOAT, &[2, 32])]);
        past_the_end.pop();
        assert_eq!(Module::read(&past_the_end).unwrap_err(), Malformed::Truncated);
        let no_words = [HEADER.as_slice(), &[OP_TYPE_FLOAT]].concat();
        assert_eq!(Module::read(&no_words).unwrap_err(), Malformed::Truncated);
        let short = module(&[(OP_DECORATE, &[9])]);
        assert_eq!(Module::read(&short).unwrap_err(), Malformed::Instruction);
    }
}
