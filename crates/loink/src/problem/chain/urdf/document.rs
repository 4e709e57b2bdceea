//! A URDF's text made an XML tree, bounded and lenient where the kinematics does not look:
//! at most [`MAX_URDF_BYTES`] of UTF-8, nested at most [`MAX_NESTING`] deep; a prefix nobody
//! declared (`<sensor:camera>` inside a `<gazebo>` block, a plugin's own tags) is declared on
//! the root so the file parses — the reader only reads `<link>` and `<joint>` elements of the
//! robot itself; and a xacro template that was never expanded is refused with what to run.

use std::borrow::Cow;

use roxmltree::{Document, Node};

use super::bad;
use crate::error::Result;

/// Largest URDF file read (bytes).
pub const MAX_URDF_BYTES: usize = 10 * 1024 * 1024;
/// Deepest element nesting read (a URDF nests about five deep; the XML parser recurses, so a
/// hostile file nested thousands deep would overflow the stack).
pub const MAX_NESTING: usize = 256;
/// Most undeclared prefixes declared for a file (a robot description uses a handful).
const MAX_PREFIXES: usize = 64;
/// The namespace given to a prefix the file uses without declaring it.
const UNDECLARED: &str = "urn:loink:undeclared";

/// The file's text, checked for size, encoding and nesting, with every undeclared prefix
/// declared on the root element (the text to parse).
pub(super) fn text(bytes: &[u8]) -> Result<Cow<'_, str>> {
    if bytes.len() > MAX_URDF_BYTES {
        return Err(bad(format!(
            "{} bytes is larger than {MAX_URDF_BYTES}",
            bytes.len()
        )));
    }
    let text = std::str::from_utf8(bytes).map_err(|e| bad(format!("not UTF-8 text ({e})")))?;
    if nesting_exceeds(text, MAX_NESTING) {
        return Err(bad(format!(
            "elements nest more than {MAX_NESTING} deep (not a robot description)"
        )));
    }
    let mut text = Cow::Borrowed(text);
    for _ in 0..MAX_PREFIXES {
        match Document::parse(&text) {
            Err(roxmltree::Error::UnknownNamespace(prefix, _)) => {
                let Some(declared) = declare(&text, &prefix) else {
                    return Err(bad(format!(
                        "not XML (the prefix '{prefix}:' is used but never declared, and the file has no <robot> element to declare it on)"
                    )));
                };
                text = Cow::Owned(declared);
            }
            Err(e) => return Err(bad(format!("not XML ({e})"))),
            Ok(_) => return Ok(text),
        }
    }
    Err(bad(format!(
        "more than {MAX_PREFIXES} undeclared XML prefixes (not a robot description)"
    )))
}

/// The `<robot>` root of a parsed file, refusing another root and an unexpanded xacro template.
pub(super) fn robot<'a, 'input>(document: &'a Document<'input>) -> Result<Node<'a, 'input>> {
    let robot = document.root_element();
    if robot.tag_name().name() != "robot" {
        return Err(bad(format!(
            "the root element is <{}>, not <robot>",
            robot.tag_name().name()
        )));
    }
    let xacro = robot.descendants().find(|n| {
        n.is_element()
            && n.tag_name()
                .namespace()
                .is_some_and(|ns| ns.contains("xacro"))
    });
    if let Some(element) = xacro {
        return Err(bad(format!(
            "the file is a xacro template, not expanded (it holds <xacro:{}>): expand it first with `xacro FILE.urdf.xacro > FILE.urdf` (ROS's xacro package) and read the result",
            element.tag_name().name()
        )));
    }
    Ok(robot)
}

/// Whether an element is one of the robot's own (not a plugin's, in another namespace).
pub(super) fn own(robot: &Node, node: &Node, tag: &str) -> bool {
    node.has_tag_name(tag) && node.tag_name().namespace() == robot.tag_name().namespace()
}

/// The text with `xmlns:prefix` declared on the `<robot>` start tag (`None`: no such tag
/// outside comments). A prefix named like xacro's is declared as xacro's namespace, so an
/// unexpanded template is recognised as one.
fn declare(text: &str, prefix: &str) -> Option<String> {
    let at = robot_tag(text)?;
    let uri = if prefix == "xacro" {
        "http://www.ros.org/wiki/xacro".to_string()
    } else {
        format!("{UNDECLARED}:{prefix}")
    };
    let insert = at + "<robot".len();
    Some(format!(
        "{} xmlns:{prefix}=\"{uri}\"{}",
        &text[..insert],
        &text[insert..]
    ))
}

/// Where the `<robot` start tag begins, outside comments.
fn robot_tag(text: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(found) = text[from..].find("<robot") {
        let at = from + found;
        let before = &text[..at];
        let opened = before.matches("<!--").count();
        let closed = before.matches("-->").count();
        let next = text[at + "<robot".len()..].chars().next();
        if opened == closed && next.is_some_and(|c| c.is_whitespace() || c == '>' || c == '/') {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// Whether elements nest deeper than `limit`, by a scan of the tags that skips comments,
/// declarations and processing instructions (an over-count only refuses a file early).
fn nesting_exceeds(text: &str, limit: usize) -> bool {
    let mut depth = 0usize;
    let mut rest = text;
    while let Some(at) = rest.find('<') {
        rest = &rest[at + 1..];
        if let Some(after) = rest.strip_prefix("!--") {
            rest = after.find("-->").map_or("", |end| &after[end + 3..]);
            continue;
        }
        let end = rest.find('>').unwrap_or(rest.len());
        let tag = &rest[..end];
        if tag.starts_with('/') {
            depth = depth.saturating_sub(1);
        } else if !(tag.starts_with('?') || tag.starts_with('!') || tag.ends_with('/')) {
            depth += 1;
            if depth > limit {
                return true;
            }
        }
        rest = &rest[end..];
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_undeclared_prefix_in_a_plugin_block_is_declared() {
        let file =
            r#"<robot name="r"><link name="a"/><gazebo><sensor:camera name="c"/></gazebo></robot>"#;
        let text = text(file.as_bytes()).unwrap();
        let document = Document::parse(&text).unwrap();
        let root = robot(&document).unwrap();
        assert_eq!(root.children().filter(|n| own(&root, n, "link")).count(), 1);
    }

    #[test]
    fn a_commented_robot_tag_is_skipped() {
        let file = "<!-- <robot> --><robot><x:y/></robot>";
        let fixed = declare(file, "x").unwrap();
        assert!(fixed.starts_with("<!-- <robot> --><robot xmlns:x="));
    }

    #[test]
    fn an_unexpanded_template_says_what_to_run() {
        for file in [
            r#"<robot xmlns:xacro="http://www.ros.org/wiki/xacro"><xacro:include filename="a.xacro"/></robot>"#,
            r#"<robot><xacro:macro name="m"/></robot>"#,
        ] {
            let text = text(file.as_bytes()).unwrap();
            let document = Document::parse(&text).unwrap();
            let message = robot(&document).unwrap_err().to_string();
            assert!(
                message.contains("xacro FILE.urdf.xacro > FILE.urdf"),
                "{message}"
            );
        }
    }
}
