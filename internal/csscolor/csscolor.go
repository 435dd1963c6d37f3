// Package csscolor reads the colours of CSS that scenes write: "#rgb",
// "#rgba", "#rrggbb", "#rrggbbaa", "rgb(r, g, b)", "rgba(r, g, b, a)"
// (channels 0-255 or percentages, alpha 0-1 or a percentage, commas or
// spaces between them, "/" before alpha allowed), one of the 148 CSS
// colour names, or "transparent", case ignored. The registry's color
// property type parses with it.
package csscolor

import (
	"math"
	"strings"
)

// Parse parses a colour (see the package comment) into its red, green,
// blue and alpha channels, reading numbers with parseFloat. It reports
// false for anything else; s is not trimmed.
func Parse(s string, parseFloat func(string) (float64, bool)) ([4]uint8, bool) {
	if s == "" {
		return [4]uint8{}, false
	}
	if s[0] == '#' {
		return parseHexColor(s[1:])
	}
	if len(s) <= 32 {
		var buf [32]byte
		low := buf[:len(s)]
		for i := range len(s) {
			c := s[i]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			low[i] = c
		}
		if c, ok := namedColors[string(low)]; ok {
			return c, true
		}
	}
	lower := strings.ToLower(s)
	var args string
	switch {
	case strings.HasPrefix(lower, "rgba(") && strings.HasSuffix(lower, ")"):
		args = s[5 : len(s)-1]
	case strings.HasPrefix(lower, "rgb(") && strings.HasSuffix(lower, ")"):
		args = s[4 : len(s)-1]
	default:
		return [4]uint8{}, false
	}
	return parseRGBArgs(args, parseFloat)
}

func hexDigit(c byte) (uint8, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

func parseHexColor(h string) ([4]uint8, bool) {
	var d [8]uint8
	if len(h) != 3 && len(h) != 4 && len(h) != 6 && len(h) != 8 {
		return [4]uint8{}, false
	}
	for i := range len(h) {
		v, ok := hexDigit(h[i])
		if !ok {
			return [4]uint8{}, false
		}
		d[i] = v
	}
	switch len(h) {
	case 3:
		return [4]uint8{d[0] * 17, d[1] * 17, d[2] * 17, 255}, true
	case 4:
		return [4]uint8{d[0] * 17, d[1] * 17, d[2] * 17, d[3] * 17}, true
	case 6:
		return [4]uint8{d[0]<<4 | d[1], d[2]<<4 | d[3], d[4]<<4 | d[5], 255}, true
	default:
		return [4]uint8{d[0]<<4 | d[1], d[2]<<4 | d[3], d[4]<<4 | d[5], d[6]<<4 | d[7]}, true
	}
}

// parseRGBArgs parses the inside of rgb()/rgba(): three channels and an
// optional alpha, separated by commas, spaces or a slash before alpha.
func parseRGBArgs(args string, parseFloat func(string) (float64, bool)) ([4]uint8, bool) {
	fields := strings.FieldsFunc(args, func(r rune) bool {
		return r == ',' || r == '/' || r == ' ' || r == '\t' || r == '\n' || r == '\r'
	})
	if len(fields) != 3 && len(fields) != 4 {
		return [4]uint8{}, false
	}
	var ch [4]uint8
	ch[3] = 255
	for i, f := range fields {
		pct := strings.HasSuffix(f, "%")
		if pct {
			f = f[:len(f)-1]
		}
		v, ok := parseFloat(f)
		if !ok {
			return [4]uint8{}, false
		}
		switch {
		case pct:
			v = v / 100 * 255
		case i == 3:
			v *= 255
		}
		ch[i] = uint8(math.Round(math.Max(0, math.Min(255, v))))
	}
	return [4]uint8{ch[0], ch[1], ch[2], ch[3]}, true
}

// namedColors maps the 148 CSS colour names (CSS Color Module Level 4), plus
// "transparent", to their values.
var namedColors = map[string][4]uint8{
	"aliceblue":            {0xf0, 0xf8, 0xff, 255},
	"antiquewhite":         {0xfa, 0xeb, 0xd7, 255},
	"aqua":                 {0x00, 0xff, 0xff, 255},
	"aquamarine":           {0x7f, 0xff, 0xd4, 255},
	"azure":                {0xf0, 0xff, 0xff, 255},
	"beige":                {0xf5, 0xf5, 0xdc, 255},
	"bisque":               {0xff, 0xe4, 0xc4, 255},
	"black":                {0x00, 0x00, 0x00, 255},
	"blanchedalmond":       {0xff, 0xeb, 0xcd, 255},
	"blue":                 {0x00, 0x00, 0xff, 255},
	"blueviolet":           {0x8a, 0x2b, 0xe2, 255},
	"brown":                {0xa5, 0x2a, 0x2a, 255},
	"burlywood":            {0xde, 0xb8, 0x87, 255},
	"cadetblue":            {0x5f, 0x9e, 0xa0, 255},
	"chartreuse":           {0x7f, 0xff, 0x00, 255},
	"chocolate":            {0xd2, 0x69, 0x1e, 255},
	"coral":                {0xff, 0x7f, 0x50, 255},
	"cornflowerblue":       {0x64, 0x95, 0xed, 255},
	"cornsilk":             {0xff, 0xf8, 0xdc, 255},
	"crimson":              {0xdc, 0x14, 0x3c, 255},
	"cyan":                 {0x00, 0xff, 0xff, 255},
	"darkblue":             {0x00, 0x00, 0x8b, 255},
	"darkcyan":             {0x00, 0x8b, 0x8b, 255},
	"darkgoldenrod":        {0xb8, 0x86, 0x0b, 255},
	"darkgray":             {0xa9, 0xa9, 0xa9, 255},
	"darkgreen":            {0x00, 0x64, 0x00, 255},
	"darkgrey":             {0xa9, 0xa9, 0xa9, 255},
	"darkkhaki":            {0xbd, 0xb7, 0x6b, 255},
	"darkmagenta":          {0x8b, 0x00, 0x8b, 255},
	"darkolivegreen":       {0x55, 0x6b, 0x2f, 255},
	"darkorange":           {0xff, 0x8c, 0x00, 255},
	"darkorchid":           {0x99, 0x32, 0xcc, 255},
	"darkred":              {0x8b, 0x00, 0x00, 255},
	"darksalmon":           {0xe9, 0x96, 0x7a, 255},
	"darkseagreen":         {0x8f, 0xbc, 0x8f, 255},
	"darkslateblue":        {0x48, 0x3d, 0x8b, 255},
	"darkslategray":        {0x2f, 0x4f, 0x4f, 255},
	"darkslategrey":        {0x2f, 0x4f, 0x4f, 255},
	"darkturquoise":        {0x00, 0xce, 0xd1, 255},
	"darkviolet":           {0x94, 0x00, 0xd3, 255},
	"deeppink":             {0xff, 0x14, 0x93, 255},
	"deepskyblue":          {0x00, 0xbf, 0xff, 255},
	"dimgray":              {0x69, 0x69, 0x69, 255},
	"dimgrey":              {0x69, 0x69, 0x69, 255},
	"dodgerblue":           {0x1e, 0x90, 0xff, 255},
	"firebrick":            {0xb2, 0x22, 0x22, 255},
	"floralwhite":          {0xff, 0xfa, 0xf0, 255},
	"forestgreen":          {0x22, 0x8b, 0x22, 255},
	"fuchsia":              {0xff, 0x00, 0xff, 255},
	"gainsboro":            {0xdc, 0xdc, 0xdc, 255},
	"ghostwhite":           {0xf8, 0xf8, 0xff, 255},
	"gold":                 {0xff, 0xd7, 0x00, 255},
	"goldenrod":            {0xda, 0xa5, 0x20, 255},
	"gray":                 {0x80, 0x80, 0x80, 255},
	"green":                {0x00, 0x80, 0x00, 255},
	"greenyellow":          {0xad, 0xff, 0x2f, 255},
	"grey":                 {0x80, 0x80, 0x80, 255},
	"honeydew":             {0xf0, 0xff, 0xf0, 255},
	"hotpink":              {0xff, 0x69, 0xb4, 255},
	"indianred":            {0xcd, 0x5c, 0x5c, 255},
	"indigo":               {0x4b, 0x00, 0x82, 255},
	"ivory":                {0xff, 0xff, 0xf0, 255},
	"khaki":                {0xf0, 0xe6, 0x8c, 255},
	"lavender":             {0xe6, 0xe6, 0xfa, 255},
	"lavenderblush":        {0xff, 0xf0, 0xf5, 255},
	"lawngreen":            {0x7c, 0xfc, 0x00, 255},
	"lemonchiffon":         {0xff, 0xfa, 0xcd, 255},
	"lightblue":            {0xad, 0xd8, 0xe6, 255},
	"lightcoral":           {0xf0, 0x80, 0x80, 255},
	"lightcyan":            {0xe0, 0xff, 0xff, 255},
	"lightgoldenrodyellow": {0xfa, 0xfa, 0xd2, 255},
	"lightgray":            {0xd3, 0xd3, 0xd3, 255},
	"lightgreen":           {0x90, 0xee, 0x90, 255},
	"lightgrey":            {0xd3, 0xd3, 0xd3, 255},
	"lightpink":            {0xff, 0xb6, 0xc1, 255},
	"lightsalmon":          {0xff, 0xa0, 0x7a, 255},
	"lightseagreen":        {0x20, 0xb2, 0xaa, 255},
	"lightskyblue":         {0x87, 0xce, 0xfa, 255},
	"lightslategray":       {0x77, 0x88, 0x99, 255},
	"lightslategrey":       {0x77, 0x88, 0x99, 255},
	"lightsteelblue":       {0xb0, 0xc4, 0xde, 255},
	"lightyellow":          {0xff, 0xff, 0xe0, 255},
	"lime":                 {0x00, 0xff, 0x00, 255},
	"limegreen":            {0x32, 0xcd, 0x32, 255},
	"linen":                {0xfa, 0xf0, 0xe6, 255},
	"magenta":              {0xff, 0x00, 0xff, 255},
	"maroon":               {0x80, 0x00, 0x00, 255},
	"mediumaquamarine":     {0x66, 0xcd, 0xaa, 255},
	"mediumblue":           {0x00, 0x00, 0xcd, 255},
	"mediumorchid":         {0xba, 0x55, 0xd3, 255},
	"mediumpurple":         {0x93, 0x70, 0xdb, 255},
	"mediumseagreen":       {0x3c, 0xb3, 0x71, 255},
	"mediumslateblue":      {0x7b, 0x68, 0xee, 255},
	"mediumspringgreen":    {0x00, 0xfa, 0x9a, 255},
	"mediumturquoise":      {0x48, 0xd1, 0xcc, 255},
	"mediumvioletred":      {0xc7, 0x15, 0x85, 255},
	"midnightblue":         {0x19, 0x19, 0x70, 255},
	"mintcream":            {0xf5, 0xff, 0xfa, 255},
	"mistyrose":            {0xff, 0xe4, 0xe1, 255},
	"moccasin":             {0xff, 0xe4, 0xb5, 255},
	"navajowhite":          {0xff, 0xde, 0xad, 255},
	"navy":                 {0x00, 0x00, 0x80, 255},
	"oldlace":              {0xfd, 0xf5, 0xe6, 255},
	"olive":                {0x80, 0x80, 0x00, 255},
	"olivedrab":            {0x6b, 0x8e, 0x23, 255},
	"orange":               {0xff, 0xa5, 0x00, 255},
	"orangered":            {0xff, 0x45, 0x00, 255},
	"orchid":               {0xda, 0x70, 0xd6, 255},
	"palegoldenrod":        {0xee, 0xe8, 0xaa, 255},
	"palegreen":            {0x98, 0xfb, 0x98, 255},
	"paleturquoise":        {0xaf, 0xee, 0xee, 255},
	"palevioletred":        {0xdb, 0x70, 0x93, 255},
	"papayawhip":           {0xff, 0xef, 0xd5, 255},
	"peachpuff":            {0xff, 0xda, 0xb9, 255},
	"peru":                 {0xcd, 0x85, 0x3f, 255},
	"pink":                 {0xff, 0xc0, 0xcb, 255},
	"plum":                 {0xdd, 0xa0, 0xdd, 255},
	"powderblue":           {0xb0, 0xe0, 0xe6, 255},
	"purple":               {0x80, 0x00, 0x80, 255},
	"rebeccapurple":        {0x66, 0x33, 0x99, 255},
	"red":                  {0xff, 0x00, 0x00, 255},
	"rosybrown":            {0xbc, 0x8f, 0x8f, 255},
	"royalblue":            {0x41, 0x69, 0xe1, 255},
	"saddlebrown":          {0x8b, 0x45, 0x13, 255},
	"salmon":               {0xfa, 0x80, 0x72, 255},
	"sandybrown":           {0xf4, 0xa4, 0x60, 255},
	"seagreen":             {0x2e, 0x8b, 0x57, 255},
	"seashell":             {0xff, 0xf5, 0xee, 255},
	"sienna":               {0xa0, 0x52, 0x2d, 255},
	"silver":               {0xc0, 0xc0, 0xc0, 255},
	"skyblue":              {0x87, 0xce, 0xeb, 255},
	"slateblue":            {0x6a, 0x5a, 0xcd, 255},
	"slategray":            {0x70, 0x80, 0x90, 255},
	"slategrey":            {0x70, 0x80, 0x90, 255},
	"snow":                 {0xff, 0xfa, 0xfa, 255},
	"springgreen":          {0x00, 0xff, 0x7f, 255},
	"steelblue":            {0x46, 0x82, 0xb4, 255},
	"tan":                  {0xd2, 0xb4, 0x8c, 255},
	"teal":                 {0x00, 0x80, 0x80, 255},
	"thistle":              {0xd8, 0xbf, 0xd8, 255},
	"tomato":               {0xff, 0x63, 0x47, 255},
	"turquoise":            {0x40, 0xe0, 0xd0, 255},
	"violet":               {0xee, 0x82, 0xee, 255},
	"wheat":                {0xf5, 0xde, 0xb3, 255},
	"white":                {0xff, 0xff, 0xff, 255},
	"whitesmoke":           {0xf5, 0xf5, 0xf5, 255},
	"yellow":               {0xff, 0xff, 0x00, 255},
	"yellowgreen":          {0x9a, 0xcd, 0x32, 255},
	"transparent":          {0, 0, 0, 0},
}
