// Runtime configuration of the studio. The reference server replaces this file with its own values;
// an empty object means: the login host is the studio's own origin.
window.__STUDIO_CONFIG__ = {};
