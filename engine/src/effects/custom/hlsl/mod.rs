//! What an HLSL stage's source says that its SPIR-V does not: the semantic and annotations of
//! each uniform, and the semantic of each vertex input.
//!
//! glslang compiles the stage, but SPIR-V keeps neither a uniform's semantic (`float4x4 World :
//! WORLD;`) nor its annotations (`<string UIName = "World";>`), and names a vertex input after
//! its parameter, not its semantic (`POSITION0`). This module reads them back from the source
//! text with a small parser of declarations, after glslang accepted the source (so it never
//! has to report a syntax error of its own). What it recognises:
//!
//! - comments (`//`, `/* */`) are skipped, and so are preprocessor lines (`#...`): macros are
//!   not expanded, so a declaration written through a macro has no semantic or annotation here;
//! - a declaration at file scope or in a `cbuffer` / `tbuffer` body: optional modifiers
//!   (`uniform`, `static`, `const`, `extern`, `row_major`, ...), a type (with an optional
//!   template argument, `Texture2D<float4>`), then one or more declarators separated by commas,
//!   each a name, an optional array size, then in any order `: SEMANTIC`, `: register(...)`,
//!   `: packoffset(...)`, annotations `< ... >` and an initializer `= ...`;
//! - annotations: `<` then declarations `TYPE Name = VALUE;` then `>`, where TYPE is `string`
//!   (a `"..."` literal with `\"` and `\\` escapes), `float`, `half` or `double` (a number),
//!   `int`, `uint` or `dword` (an integer), or `bool` (`true`, `false`); an annotation of
//!   another type (a vector, a texture) is refused, naming it and its line;
//! - `struct` declarations with members `TYPE Name : SEMANTIC;`;
//! - the entry point `main`'s parameters, `[in] TYPE Name : SEMANTIC` or a struct of such
//!   members (`in` only: `out` and `inout` parameters are outputs). glslang names such an input
//!   after the parameter (`Position`) or the parameter and member (`input.Position`), and so
//!   does this module.

use super::parameter::{AnnotationValue, EffectAnnotation};

/// A uniform declared in the source: a cbuffer member or a sampler.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Uniform {
    pub name: String,
    /// The semantic as written (`WORLD`), empty when there is none.
    pub semantic: String,
    pub annotations: Vec<EffectAnnotation>,
}

/// What the source declares.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Declarations {
    pub uniforms: Vec<Uniform>,
    /// The entry point's inputs: glslang's name for each and its semantic.
    pub inputs: Vec<(String, String)>,
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Ident(String),
    Number(String),
    Str(String),
    Punct(char),
}

/// Tokens with their line (from 1).
fn tokens(source: &str) -> Vec<(Token, u32)> {
    let chars: Vec<char> = source.chars().collect();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    let mut line_start = true;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            line_start = true;
            i += 1;
            continue;
        }
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c == '#' && line_start {
            // A preprocessor line, with its continuations.
            while i < chars.len() && chars[i] != '\n' {
                if chars[i] == '\\' && chars.get(i + 1) == Some(&'\n') {
                    line += 1;
                    i += 1;
                }
                i += 1;
            }
            continue;
        }
        line_start = false;
        if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'*') {
            i += 2;
            while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                if chars[i] == '\n' {
                    line += 1;
                }
                i += 1;
            }
            i += 2;
            continue;
        }
        if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push((Token::Ident(chars[start..i].iter().collect()), line));
            continue;
        }
        if c.is_ascii_digit() || c == '.' && chars.get(i + 1).is_some_and(char::is_ascii_digit) {
            let start = i;
            while i < chars.len()
                && (chars[i].is_ascii_alphanumeric()
                    || chars[i] == '.'
                    || (matches!(chars[i], '+' | '-') && matches!(chars[i - 1], 'e' | 'E')))
            {
                i += 1;
            }
            out.push((Token::Number(chars[start..i].iter().collect()), line));
            continue;
        }
        if c == '"' {
            let mut text = String::new();
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' && i + 1 < chars.len() {
                    i += 1;
                }
                if chars[i] == '\n' {
                    line += 1;
                }
                text.push(chars[i]);
                i += 1;
            }
            i += 1;
            out.push((Token::Str(text), line));
            continue;
        }
        out.push((Token::Punct(c), line));
        i += 1;
    }
    out
}

const MODIFIERS: &[&str] = &[
    "uniform",
    "static",
    "const",
    "extern",
    "shared",
    "volatile",
    "groupshared",
    "precise",
    "row_major",
    "column_major",
    "in",
    "inout",
    "out",
    "linear",
    "centroid",
    "nointerpolation",
    "noperspective",
    "sample",
];

/// A cursor over the tokens.
struct Parser {
    tokens: Vec<(Token, u32)>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at).map(|(t, _)| t)
    }

    fn peek_at(&self, ahead: usize) -> Option<&Token> {
        self.tokens.get(self.at + ahead).map(|(t, _)| t)
    }

    fn line(&self) -> u32 {
        self.tokens.get(self.at).or(self.tokens.last()).map_or(0, |(_, l)| *l)
    }

    fn next(&mut self) -> Option<Token> {
        let t = self.tokens.get(self.at).map(|(t, _)| t.clone());
        self.at += 1;
        t
    }

    fn is(&self, c: char) -> bool {
        self.peek() == Some(&Token::Punct(c))
    }

    fn eat(&mut self, c: char) -> bool {
        let found = self.is(c);
        if found {
            self.at += 1;
        }
        found
    }

    fn ident(&mut self) -> Option<String> {
        match self.peek() {
            Some(Token::Ident(s)) => {
                let s = s.clone();
                self.at += 1;
                Some(s)
            }
            _ => None,
        }
    }

    /// Skips a balanced group that opens at the cursor (`(`, `[`, `{` or `<`).
    fn skip_group(&mut self) {
        let open = match self.peek() {
            Some(Token::Punct(c)) => *c,
            _ => return,
        };
        let close = match open {
            '(' => ')',
            '[' => ']',
            '{' => '}',
            '<' => '>',
            _ => return,
        };
        let mut depth = 0;
        while let Some(t) = self.next() {
            if t == Token::Punct(open) {
                depth += 1;
            } else if t == Token::Punct(close) {
                depth -= 1;
                if depth == 0 {
                    return;
                }
            }
        }
    }

    /// Skips to the `;` ending the statement at this level, and past it.
    fn skip_statement(&mut self) {
        while let Some(t) = self.peek() {
            match t {
                Token::Punct(';') => {
                    self.at += 1;
                    return;
                }
                Token::Punct('(' | '[' | '{') => self.skip_group(),
                _ => self.at += 1,
            }
        }
    }

    fn skip_modifiers(&mut self) {
        while let Some(Token::Ident(s)) = self.peek() {
            if !MODIFIERS.contains(&s.as_str()) {
                return;
            }
            self.at += 1;
        }
    }
}

/// A declarator's name, semantic and annotations, parsed from after the type; the cursor ends
/// at the `,` or `;` after it (or where it could not go on).
fn declarator(p: &mut Parser) -> Result<Option<Uniform>, String> {
    let Some(name) = p.ident() else { return Ok(None) };
    let mut uniform = Uniform { name, ..Uniform::default() };
    loop {
        if p.is('[') {
            p.skip_group();
        } else if p.eat(':') {
            match p.ident() {
                Some(s) if s == "register" || s == "packoffset" => p.skip_group(),
                Some(s) => uniform.semantic = s,
                None => return Ok(Some(uniform)),
            }
        } else if p.is('<') {
            uniform.annotations = annotations(p)?;
        } else if p.eat('=') {
            while !(p.is(',') || p.is(';') || p.peek().is_none()) {
                if p.is('{') || p.is('(') {
                    p.skip_group();
                } else {
                    p.at += 1;
                }
            }
        } else {
            return Ok(Some(uniform));
        }
    }
}

/// `< TYPE Name = VALUE; ... >`.
fn annotations(p: &mut Parser) -> Result<Vec<EffectAnnotation>, String> {
    p.eat('<');
    let mut out = Vec::new();
    while !p.eat('>') {
        let line = p.line();
        let Some(ty) = p.ident() else {
            return Err(format!("line {line}: an annotation must be TYPE Name = value;"));
        };
        let name = p.ident().unwrap_or_default();
        if !p.eat('=') {
            return Err(format!("line {line}: the annotation '{name}' has no value"));
        }
        let negative = p.eat('-');
        let value = match (ty.as_str(), p.next()) {
            ("string", Some(Token::Str(s))) => AnnotationValue::String(s),
            ("float" | "half" | "double", Some(Token::Number(n))) => {
                let f: f32 =
                    n.trim_end_matches(['f', 'F', 'h', 'H', 'l', 'L']).parse().map_err(|_| {
                        format!("line {line}: the annotation '{name}' is not a number ({n})")
                    })?;
                AnnotationValue::Single(if negative { -f } else { f })
            }
            ("int" | "uint" | "dword", Some(Token::Number(n))) => {
                let digits = n.trim_end_matches(['u', 'U', 'l', 'L']);
                let v = match digits.strip_prefix("0x").or(digits.strip_prefix("0X")) {
                    Some(hex) => i64::from_str_radix(hex, 16),
                    None => digits.parse(),
                }
                .ok()
                .and_then(|v: i64| i32::try_from(if negative { -v } else { v }).ok())
                .ok_or_else(|| {
                    format!("line {line}: the annotation '{name}' is not a 32-bit integer ({n})")
                })?;
                AnnotationValue::Int32(v)
            }
            ("bool", Some(Token::Ident(b))) if b == "true" || b == "false" => {
                AnnotationValue::Bool(b == "true")
            }
            _ => {
                return Err(format!(
                    "line {line}: the annotation '{name}' of type {ty} is not supported \
                     (annotations are string, float, int or bool)"
                ))
            }
        };
        out.push(EffectAnnotation { name, value });
        if !p.eat(';') {
            return Err(format!(
                "line {line}: the annotation '{}' needs a ';'",
                out[out.len() - 1].name
            ));
        }
    }
    Ok(out)
}

/// The declarations after a type: declarators separated by commas, to the `;`.
fn declaration(p: &mut Parser, out: &mut Vec<Uniform>) -> Result<(), String> {
    while let Some(u) = declarator(p)? {
        out.push(u);
        if !p.eat(',') {
            break;
        }
    }
    p.skip_statement();
    Ok(())
}

/// A type at the cursor, with its template argument; `None` when the cursor is not at one.
fn type_name(p: &mut Parser) -> Option<String> {
    let ty = p.ident()?;
    if p.is('<') {
        p.skip_group();
    }
    Some(ty)
}

/// `{ TYPE Name : SEMANTIC; ... }` of a struct: each member's name and semantic.
fn struct_members(p: &mut Parser) -> Vec<(String, String)> {
    let mut members = Vec::new();
    if !p.eat('{') {
        return members;
    }
    while !p.eat('}') && p.peek().is_some() {
        p.skip_modifiers();
        if type_name(p).is_none() {
            p.skip_statement();
            continue;
        }
        let mut found = Vec::new();
        // Member annotations and initializers are not expected; a failure to parse them only
        // loses the member's semantic.
        let _ = declaration(p, &mut found);
        members.extend(found.into_iter().map(|u| (u.name, u.semantic)));
    }
    members
}

/// Reads `source`'s uniforms and, for a vertex stage, its inputs. A refusal (an annotation this
/// parser does not read) is the message of the caller's `ArgumentException`, with its line.
pub(crate) fn declarations(source: &str) -> Result<Declarations, String> {
    let mut p = Parser { tokens: tokens(source), at: 0 };
    let mut out = Declarations::default();
    let mut structs: Vec<(String, Vec<(String, String)>)> = Vec::new();
    while p.peek().is_some() {
        if p.eat(';') {
            continue;
        }
        match p.peek() {
            Some(Token::Ident(s)) if s == "struct" => {
                p.at += 1;
                let name = p.ident().unwrap_or_default();
                let members = struct_members(&mut p);
                structs.push((name, members));
                p.skip_statement();
                continue;
            }
            Some(Token::Ident(s)) if s == "cbuffer" || s == "tbuffer" => {
                p.at += 1;
                while !p.is('{') && p.peek().is_some() {
                    if p.is('(') {
                        p.skip_group();
                    } else {
                        p.at += 1;
                    }
                }
                p.eat('{');
                while !p.eat('}') && p.peek().is_some() {
                    p.skip_modifiers();
                    if type_name(&mut p).is_none() {
                        p.skip_statement();
                        continue;
                    }
                    declaration(&mut p, &mut out.uniforms)?;
                }
                continue;
            }
            Some(Token::Ident(s)) if s == "typedef" || s == "technique" || s == "pass" => {
                p.skip_statement();
                continue;
            }
            Some(Token::Ident(_)) => {}
            _ => {
                // Not a declaration this parser reads: on to the next statement.
                if p.is('{') {
                    p.skip_group();
                } else {
                    p.skip_statement();
                }
                continue;
            }
        }
        p.skip_modifiers();
        if type_name(&mut p).is_none() {
            p.skip_statement();
            continue;
        }
        let is_function =
            matches!(p.peek(), Some(Token::Ident(_))) && p.peek_at(1) == Some(&Token::Punct('('));
        if is_function {
            let name = p.ident().unwrap_or_default();
            if name == "main" {
                out.inputs = inputs(&mut p, &structs);
            } else {
                p.skip_group();
            }
            // The return semantic, then the body (or `;` for a prototype).
            while !(p.is('{') || p.is(';')) && p.peek().is_some() {
                p.at += 1;
            }
            if p.is('{') {
                p.skip_group();
            } else {
                p.eat(';');
            }
            continue;
        }
        declaration(&mut p, &mut out.uniforms)?;
    }
    Ok(out)
}

/// The parameters of `main` at the cursor (`(`): each `in` parameter's name and semantic, a
/// struct parameter's members as `param.member`.
fn inputs(p: &mut Parser, structs: &[(String, Vec<(String, String)>)]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if !p.eat('(') {
        return out;
    }
    while !p.eat(')') && p.peek().is_some() {
        let mut output = false;
        while let Some(Token::Ident(s)) = p.peek() {
            if !MODIFIERS.contains(&s.as_str()) {
                break;
            }
            output |= s == "out" || s == "inout";
            p.at += 1;
        }
        let ty = type_name(p).unwrap_or_default();
        let name = p.ident().unwrap_or_default();
        let mut semantic = String::new();
        while !(p.is(',') || p.is(')')) && p.peek().is_some() {
            if p.eat(':') {
                if let Some(s) = p.ident() {
                    semantic = s;
                }
            } else if p.is('(') || p.is('[') || p.is('<') {
                p.skip_group();
            } else {
                p.at += 1;
            }
        }
        p.eat(',');
        if output {
            continue;
        }
        match structs.iter().find(|(s, _)| *s == ty) {
            Some((_, members)) => out.extend(
                members
                    .iter()
                    .map(|(member, semantic)| (format!("{name}.{member}"), semantic.clone())),
            ),
            None => out.push((name, semantic)),
        }
    }
    out
}

/// The vertex element usage name ([`super::usage_of`]'s spelling) of an input semantic, as XNA
/// maps `VertexElementUsage` to Direct3D's usages: `POSITION0` is `Position0`, `TEXCOORD1`
/// `TextureCoordinate1`, `COLOR` `Color` (any case). `None` for a semantic no vertex element
/// has.
pub(crate) fn usage_name(semantic: &str) -> Option<String> {
    let digits = semantic.len() - semantic.bytes().rev().take_while(u8::is_ascii_digit).count();
    let (base, index) = semantic.split_at(digits);
    let usage = match base.to_ascii_uppercase().as_str() {
        "POSITION" => "Position",
        "COLOR" => "Color",
        "TEXCOORD" => "TextureCoordinate",
        "NORMAL" => "Normal",
        "BINORMAL" => "Binormal",
        "TANGENT" => "Tangent",
        "BLENDINDICES" => "BlendIndices",
        "BLENDWEIGHT" => "BlendWeight",
        "DEPTH" => "Depth",
        "FOG" => "Fog",
        "PSIZE" => "PointSize",
        "SAMPLE" => "Sample",
        "TESSFACTOR" => "TessellateFactor",
        _ => return None,
    };
    Some(format!("{usage}{index}"))
}

#[cfg(test)]
mod tests;
