//! CSS declarations and values: font size, weight, style, decoration, colour, family.

use super::*;

/// A font size as written.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Size {
    Px(f32),
    /// Relative to the parent's size (em, %, smaller, larger).
    Parent(f32),
    /// Relative to the root size (rem).
    Root(f32),
}

/// One declaration the cascade understands.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Decl {
    pub(super) important: bool,
    pub(super) value: Value,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Value {
    Size(Size),
    Weight(u16),
    Bolder,
    Lighter,
    Italic(bool),
    Underline(bool),
    Color(u32),
    Family(String),
    /// `inherit` for one property.
    Inherit(Property),
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Property {
    Size,
    Weight,
    Italic,
    Color,
}

impl Decl {
    /// Parses one declaration into the [`Decl`]s it sets (the `font` shorthand sets several).
    pub(super) fn parse_into(name: &str, value: &str, important: bool, out: &mut Vec<Decl>) {
        let mut values = Vec::new();
        parse_declaration(name, value, &mut values);
        out.extend(values.into_iter().map(|value| Decl { important, value }));
    }

    pub(super) fn apply(&self, parent: &Style, s: &mut Style, family: &mut Option<String>) {
        match &self.value {
            Value::Size(size) => {
                s.size = match *size {
                    Size::Px(px) => px,
                    Size::Parent(f) => parent.size * f,
                    Size::Root(f) => ROOT_FONT_SIZE * f,
                }
                .clamp(1.0, 500.0)
            }
            Value::Weight(w) => s.weight = *w,
            Value::Bolder => s.weight = bolder(parent.weight),
            Value::Lighter => s.weight = lighter(parent.weight),
            Value::Italic(i) => s.italic = *i,
            Value::Underline(u) => s.underline = *u,
            Value::Color(c) => s.color = *c,
            Value::Family(f) => *family = Some(f.clone()),
            Value::Inherit(p) => match p {
                Property::Size => s.size = parent.size,
                Property::Weight => s.weight = parent.weight,
                Property::Italic => s.italic = parent.italic,
                Property::Color => s.color = parent.color,
            },
        }
    }
}

/// Parses a declaration into zero or more values (the `font` shorthand yields several).
pub(super) fn parse_declaration(name: &str, value: &str, out: &mut Vec<Value>) {
    let name = name.trim().to_ascii_lowercase();
    let value = value.trim().to_ascii_lowercase();
    let inherit = value == "inherit";
    match name.as_str() {
        "font-size" if inherit => out.push(Value::Inherit(Property::Size)),
        "font-size" => out.extend(parse_size(&value).map(Value::Size)),
        "font-weight" if inherit => out.push(Value::Inherit(Property::Weight)),
        "font-weight" => out.extend(parse_weight(&value)),
        "font-style" if inherit => out.push(Value::Inherit(Property::Italic)),
        "font-style" => out.push(Value::Italic(
            value.starts_with("italic") || value.starts_with("oblique"),
        )),
        "text-decoration" | "text-decoration-line" => {
            if value.contains("underline") {
                out.push(Value::Underline(true));
            } else if value.starts_with("none") || value == "initial" {
                out.push(Value::Underline(false));
            }
        }
        "color" if inherit => out.push(Value::Inherit(Property::Color)),
        "color" => out.extend(parse_color(&value).map(Value::Color)),
        "font-family" => out.extend(first_family(&value).map(Value::Family)),
        "font" => parse_font_shorthand(&value, out),
        _ => {}
    }
}

pub(super) fn parse_weight(v: &str) -> Option<Value> {
    Some(match v {
        "normal" | "initial" => Value::Weight(400),
        "bold" => Value::Weight(700),
        "bolder" => Value::Bolder,
        "lighter" => Value::Lighter,
        _ => Value::Weight(v.parse::<u16>().ok().filter(|w| (1..=1000).contains(w))?),
    })
}

pub(super) fn parse_size(v: &str) -> Option<Size> {
    let v = v.trim();
    Some(match v {
        "xx-small" => Size::Px(9.0),
        "x-small" => Size::Px(10.0),
        "small" => Size::Px(13.0),
        "medium" | "initial" => Size::Px(16.0),
        "large" => Size::Px(18.0),
        "x-large" => Size::Px(24.0),
        "xx-large" => Size::Px(32.0),
        "xxx-large" => Size::Px(48.0),
        "smaller" => Size::Parent(1.0 / 1.2),
        "larger" => Size::Parent(1.2),
        _ => {
            let split = v
                .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+'))
                .unwrap_or(v.len());
            let (num, unit) = v.split_at(split);
            let n: f32 = num.parse().ok()?;
            if !n.is_finite() || n < 0.0 {
                return None;
            }
            match unit.trim() {
                "px" => Size::Px(n),
                "" if n == 0.0 => Size::Px(0.0),
                "pt" => Size::Px(n * 4.0 / 3.0),
                "pc" => Size::Px(n * 16.0),
                "em" => Size::Parent(n),
                "%" => Size::Parent(n / 100.0),
                "rem" => Size::Root(n),
                "ex" | "ch" => Size::Parent(n / 2.0),
                "mm" => Size::Px(n * 96.0 / 25.4),
                "cm" => Size::Px(n * 96.0 / 2.54),
                "in" => Size::Px(n * 96.0),
                // vw/vh and calc() cannot be resolved without a viewport.
                _ => return None,
            }
        }
    })
}

/// `font: [style] [variant] [weight] size[/line-height] family`.
pub(super) fn parse_font_shorthand(v: &str, out: &mut Vec<Value>) {
    let mut italic = false;
    let mut weight = 400;
    let mut words = v.split_whitespace();
    for w in words.by_ref() {
        match w {
            "italic" | "oblique" => italic = true,
            "normal" | "small-caps" => {}
            "bold" | "bolder" => weight = 700,
            "lighter" => weight = 300,
            _ => {
                if let Some(Value::Weight(n)) = parse_weight(w) {
                    weight = n;
                    continue;
                }
                let size = w.split('/').next().unwrap_or(w);
                if let Some(s) = parse_size(size) {
                    out.push(Value::Size(s));
                    out.push(Value::Weight(weight));
                    out.push(Value::Italic(italic));
                    let rest: Vec<&str> = words.skip_while(|w| w.starts_with('/')).collect();
                    out.extend(first_family(&rest.join(" ")).map(Value::Family));
                }
                return;
            }
        }
    }
}

pub(super) fn first_family(v: &str) -> Option<String> {
    let f = v.split(',').next()?.trim().trim_matches(['"', '\'']).trim();
    (!f.is_empty()).then(|| f.to_ascii_lowercase())
}

/// Parses `#rgb`, `#rrggbb(aa)`, `rgb(…)`/`rgba(…)` and common colour names.
pub fn parse_color(v: &str) -> Option<u32> {
    let v = v.trim().to_ascii_lowercase();
    if let Some(hex) = v.strip_prefix('#') {
        let digits: Vec<u32> = hex.chars().map(|c| c.to_digit(16)).collect::<Option<_>>()?;
        return match digits.len() {
            3 | 4 => Some((digits[0] * 17) << 16 | (digits[1] * 17) << 8 | (digits[2] * 17)),
            6 | 8 => Some(digits[..6].iter().fold(0, |acc, d| acc << 4 | d)),
            _ => None,
        };
    }
    if let Some(args) = v
        .strip_prefix("rgba(")
        .or_else(|| v.strip_prefix("rgb("))
        .and_then(|a| a.strip_suffix(')'))
    {
        let parts: Vec<u32> = args
            .split([',', ' ', '/'])
            .filter(|p| !p.is_empty())
            .take(3)
            .map(|p| {
                if let Some(pct) = p.strip_suffix('%') {
                    pct.parse::<f32>().ok().map(|x| (x * 2.55).round() as u32)
                } else {
                    p.parse::<f32>().ok().map(|x| x.round() as u32)
                }
            })
            .collect::<Option<_>>()?;
        if parts.len() == 3 {
            return Some(parts[0].min(255) << 16 | parts[1].min(255) << 8 | parts[2].min(255));
        }
        return None;
    }
    Some(match v.as_str() {
        "black" => 0x000000,
        "white" => 0xffffff,
        "red" => 0xff0000,
        "green" => 0x008000,
        "blue" => 0x0000ff,
        "navy" => 0x000080,
        "maroon" => 0x800000,
        "gray" | "grey" => 0x808080,
        "silver" => 0xc0c0c0,
        "darkgray" | "darkgrey" => 0xa9a9a9,
        "dimgray" | "dimgrey" => 0x696969,
        "orange" => 0xffa500,
        "purple" => 0x800080,
        "teal" => 0x008080,
        "olive" => 0x808000,
        "darkred" => 0x8b0000,
        "darkblue" => 0x00008b,
        _ => return None,
    })
}
