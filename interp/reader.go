package interp

import (
	"errors"
	"fmt"
	"io"
	"iter"

	"mvdan.cc/sh/v3/syntax"
)

// CommandReader splits a script read incrementally (a pipe that may stay
// open, such as an agent's standard input) into complete commands, the way
// bash reads a script from a pipe: it reads one byte at a time and never
// past the newline that completes a command, so the rest of the input stays
// in the underlying reader (for the caller, or for a command that reads
// standard input itself). The zero value is not usable; call
// NewCommandReader.
type CommandReader struct {
	src     io.Reader
	pending []byte // bytes read since the last command returned
	eof     bool   // src returned io.EOF
	readErr error  // src returned another error
	tooBig  bool   // pending went over MaxTextSize
	final   error  // returned by every call once the input is exhausted

	parser *syntax.Parser
	next   func() ([]*syntax.Stmt, error, bool)
	stop   func()
}

// NewCommandReader returns a CommandReader reading r.
func NewCommandReader(r io.Reader) *CommandReader {
	return &CommandReader{src: r}
}

// errTooBig stops the parser when a command grows over MaxTextSize.
var errTooBig = errors.New("command too large")

// Next returns the raw bytes of the next complete command: one or more
// whole lines, byte for byte as read including the trailing newline, that
// parse as complete statements. Lines that are blank or only comments are
// kept and returned with the command that follows them. A command continues
// over further lines while it is incomplete: here-document bodies, open
// quotes, substitutions and compound commands (if … fi), and lines ending in
// "&&", "||", "|" or "\". Next returns as soon as the line completing a
// command has been read and reads nothing beyond it.
//
// A chunk that is a parse error (not merely incomplete) is returned as soon
// as its line ends; Analyze refuses it and the following line starts a new
// command. At end of input Next returns whatever text remains, complete or
// not (Analyze refuses an incomplete one), with a nil error, and then "",
// io.EOF. A read error other than io.EOF is returned the same way, after the
// remaining text. A command larger than MaxTextSize is returned as soon as it
// is over the limit (Analyze refuses it); every later call then returns a
// *NotUnderstood, since the rest of the input can no longer be split
// reliably.
func (c *CommandReader) Next() (string, error) {
	if c.final != nil {
		return "", c.final
	}
	for {
		if c.next == nil {
			c.parser = syntax.NewParser(syntax.Variant(syntax.LangBash))
			c.next, c.stop = iter.Pull2(c.parser.InteractiveSeq(lineReader{c}))
		}
		stmts, err, ok := c.next()
		switch {
		case c.tooBig:
			c.reset()
			c.final = &NotUnderstood{Line: 1, Col: 1, Reason: fmt.Sprintf("command over %d bytes; rest of input not read", MaxTextSize)}
			return c.take(), nil
		case !ok:
			// The parser has seen the end of the input (or a read
			// error) with no error of its own.
			c.reset()
			return c.finish()
		case err != nil:
			c.reset()
			if c.eof || c.readErr != nil {
				return c.finish()
			}
			// A parse error: return it with the rest of its line.
			c.restOfLine()
			return c.take(), nil
		case c.parser.Incomplete():
			continue
		case len(stmts) == 0:
			continue // blank or comment line: keep it for the next command
		default:
			return c.take(), nil
		}
	}
}

// finish returns the remaining text, if any, and records the final error.
func (c *CommandReader) finish() (string, error) {
	c.final = io.EOF
	if c.readErr != nil {
		c.final = c.readErr
	}
	if len(c.pending) > 0 {
		return c.take(), nil
	}
	return "", c.final
}

func (c *CommandReader) take() string {
	s := string(c.pending)
	c.pending = c.pending[:0]
	return s
}

// reset drops the parser; the next call starts a fresh one at the current
// input position.
func (c *CommandReader) reset() {
	if c.stop != nil {
		c.stop()
	}
	c.next, c.stop, c.parser = nil, nil, nil
}

// restOfLine reads up to and including the next newline, unless the pending
// text already ends a line.
func (c *CommandReader) restOfLine() {
	for len(c.pending) > 0 && c.pending[len(c.pending)-1] != '\n' && !c.eof && c.readErr == nil && !c.tooBig {
		c.readByte()
	}
}

// readByte reads one byte from the source into pending.
func (c *CommandReader) readByte() (byte, bool) {
	var b [1]byte
	for {
		n, err := c.src.Read(b[:])
		if n == 1 {
			c.pending = append(c.pending, b[0])
			if len(c.pending) > MaxTextSize {
				c.tooBig = true
			}
			return b[0], true
		}
		if err == io.EOF {
			c.eof = true
			return 0, false
		}
		if err != nil {
			c.readErr = err
			return 0, false
		}
	}
}

// lineReader feeds the parser at most one line per Read, one byte at a time
// from the source, so the parser never asks for input past a line end
// before it has reported the statements that line completes.
type lineReader struct{ c *CommandReader }

func (l lineReader) Read(p []byte) (int, error) {
	c := l.c
	n := 0
	for n < len(p) {
		if c.tooBig {
			return n, errTooBig
		}
		if c.eof || c.readErr != nil {
			break
		}
		b, ok := c.readByte()
		if !ok {
			break
		}
		p[n] = b
		n++
		if b == '\n' {
			return n, nil
		}
	}
	if n > 0 {
		return n, nil
	}
	if c.readErr != nil {
		return 0, c.readErr
	}
	return 0, io.EOF
}
