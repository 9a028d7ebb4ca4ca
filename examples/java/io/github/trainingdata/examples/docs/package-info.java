/**
 * The code the README and the {@code docs/} guide show, compiled by the build and synthesized by tests: each snippet
 * is the text between a {@code // snippet:<name>} line and the next {@code // end-snippet} line of a file here, and
 * {@code DocSnippetsTest} checks that every Java block of the documents is one of them, word for word.
 */
package io.github.trainingdata.examples.docs;
