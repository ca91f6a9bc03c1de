/**
 * Blueprint's `Text` (inside every Button, AnchorButton, Tag and MenuItem with text) without a state change
 * in the commit that mounts it. Blueprint's own version copies the element's text into state in a layout
 * effect, and for an ellipsized text (Tag, MenuItem) measures whether it overflows (`scrollWidth`, which makes
 * the browser lay out the page in the middle of React's commit). That state change renders every such
 * component a second time, synchronously, and makes React run the passive effects of the whole screen
 * (sockets, icon loads, storage listeners) in the same long task, before the browser can paint. On the
 * customers list (about 60 of them: 40 status and risk tags, the sort buttons, the navbar) that was the
 * largest single cost of the first row. This version keeps the same props and the same DOM: the
 * text's `title` is the text itself only when an ellipsized text overflows, as before; it is measured in a
 * passive effect after the commit (the title is a hover tooltip: nobody sees it in the first frame), and
 * state is set only when that title changes, so a text that fits renders once. Build only, as
 * build/blueprintIconNames.ts: the dev server and the jsdom tests use Blueprint's file unchanged.
 */
import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';

const TEXT = /@blueprintjs[\\/]core[\\/]lib[\\/]esm[\\/]components[\\/]text[\\/]text\.js$/;

/** The version of Blueprint this replacement was written against (its `Text` checked line by line). */
const CHECKED = '6.20.0';

const SOURCE = `import classNames from "classnames";
import { createElement, forwardRef, useEffect, useMemo, useRef, useState } from "react";
import { Classes, mergeRefs } from "../../common";
import { DISPLAYNAME_PREFIX } from "../../common/props";
// Replaced at build by build/blueprintText.ts: the same component, measured after the commit, no state change on mount.
export const Text = forwardRef(({ children, tagName = "div", title, className, ellipsize = false, ...htmlProps }, forwardedRef) => {
    const contentMeasuringRef = useRef();
    const textRef = useMemo(() => mergeRefs(contentMeasuringRef, forwardedRef), [forwardedRef]);
    // The text as a title when it is ellipsized and overflows, else undefined (Blueprint's rule).
    const [overflowTitle, setOverflowTitle] = useState();
    useEffect(() => {
        const element = contentMeasuringRef.current;
        if (element?.textContent == null) return;
        // Only an ellipsized text is measured (reading scrollWidth lays out the page if it is not laid out yet).
        const next = ellipsize && element.scrollWidth > element.clientWidth ? element.textContent : undefined;
        if (next !== overflowTitle) setOverflowTitle(next);
    }, [contentMeasuringRef, children, ellipsize]);
    return createElement(tagName, {
        ...htmlProps,
        className: classNames({
            [Classes.TEXT_OVERFLOW_ELLIPSIS]: ellipsize,
        }, className),
        ref: textRef,
        title: title ?? overflowTitle,
    }, children);
});
Text.displayName = \`\${DISPLAYNAME_PREFIX}.Text\`;
`;

export function blueprintText(): Plugin {
  return {
    name: 'blueprint-text',
    apply: 'build',
    enforce: 'pre',
    load(id) {
      if (!TEXT.test(id)) return null;
      const pkg = JSON.parse(readFileSync(id.replace(/lib[\\/]esm[\\/].*$/, 'package.json'), 'utf8')) as {
        version: string;
      };
      // Another Blueprint version may have changed Text: look at it again before moving this check.
      if (pkg.version !== CHECKED)
        this.error(
          `build/blueprintText.ts was checked against @blueprintjs/core ${CHECKED}, not ${pkg.version}`,
        );
      return SOURCE;
    },
  };
}
