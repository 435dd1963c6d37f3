package editor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
)

// createRequest is the body of a [Create].
type createRequest struct {
	// Parent is the parent's reference; empty: a root.
	Parent string `json:"parent"`
	ID     string `json:"id"`
	// IDBase asks for the id IDBase-N, N the smallest positive number
	// that no entity of the World or the scene's files has.
	IDBase string `json:"idBase"`
	// Class and Mixin are a space-separated string or an array.
	Class words `json:"class"`
	Mixin words `json:"mixin"`
	// Components maps component names to attribute strings, in order.
	Components attrList `json:"components"`
}

// CheckCreate checks the body of a [Create] without the World: one JSON
// object of the fields it takes, an id that can be one. The error is an
// [Invalid] [*Error].
func CheckCreate(body []byte) error {
	_, err := parseCreate(body)
	return err
}

// parseCreate reads the body of a Create.
func parseCreate(body []byte) (*createRequest, error) {
	var req createRequest
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return nil, fail(Invalid, "body: %s (want {\"parent\": REF, \"id\": ID or \"idBase\": BASE, \"class\": \"a b\", \"mixin\": \"m\", \"components\": {\"name\": \"attribute string\"}})", err)
	}
	if dec.More() {
		return nil, fail(Invalid, "body: more than one JSON value")
	}
	if req.ID != "" && !ValidWord(req.ID) {
		return nil, fail(Invalid, "invalid id %q (no spaces or control characters)", req.ID)
	}
	switch {
	case req.IDBase != "" && req.ID != "":
		return nil, fail(Invalid, "body: give \"id\" or \"idBase\", not both")
	case req.IDBase != "" && !ValidWord(req.IDBase):
		return nil, fail(Invalid, "invalid idBase %q (no spaces or control characters)", req.IDBase)
	}
	return &req, nil
}

// words is a JSON string of space-separated words or an array of them.
type words []string

// UnmarshalJSON reads a string or an array of strings.
func (ws *words) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*ws = strings.Fields(s)
		return nil
	}
	var list []string
	if err := json.Unmarshal(b, &list); err != nil {
		return fmt.Errorf("want a string or an array of strings")
	}
	for _, x := range list {
		if !ValidWord(x) {
			return fmt.Errorf("%q: no spaces or control characters allowed", x)
		}
	}
	*ws = list
	return nil
}

// attrList is a JSON object of component name -> attribute string, kept
// in order.
type attrList [][2]string

// UnmarshalJSON reads the object keeping its order; null stands for the
// empty attribute string (a tag).
func (al *attrList) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	t, err := dec.Token()
	if err != nil {
		return err
	}
	if t == nil {
		return nil
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("want an object of component name to attribute string")
	}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return err
		}
		k := kt.(string)
		vt, err := dec.Token()
		if err != nil {
			return err
		}
		var v string
		switch x := vt.(type) {
		case string:
			v = x
		case nil:
		default:
			return fmt.Errorf("components.%s: want an attribute string (such as \"hp: 5\" or \"1 2 3\")", k)
		}
		*al = append(*al, [2]string{k, v})
	}
	_, err = dec.Token()
	return err
}

// ValidWord reports whether s can be an id, class or prefab name: not
// empty, no white space or control characters (as scene files require).
func ValidWord(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			return false
		}
	}
	return true
}
