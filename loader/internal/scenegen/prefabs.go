package scenegen

// PrefabScenes returns scenes written in ext ("yaml" or "xml") with
// prefabs, variants, nested prefabs and part overrides, and prefab
// mistakes (unknown, cyclic, a part the prefab lacks, trees far past
// small limits): seeds for the fuzz tests of the readers and the
// pipeline.
func PrefabScenes(ext string) []string {
	scenes := map[string][]string{
		"yaml": {
			"prefabs:\n  gun: {class: gun, children: [{id: muzzle, position: 0 1 0}]}\n  ship: {children: [{id: gun-left, prefab: gun}]}\n  big: {prefab: ship, scale: 2 2 2}\nentities:\n  - id: f1\n    prefab: big\n    parts:\n      gun-left/muzzle: {scale: 3 3 3}\n    children: [{id: pilot}]\n",
			"prefabs:\n  a: {prefab: b}\n  b: {prefab: a}\nentities:\n  - prefab: a\n  - prefab: nope\n  - prefab: a\n    parts: {missing: {visible: false}}\n",
			// Parts an instance does not have, and what is wrong with them.
			"prefabs:\n  gun: {children: [{id: muzzle}]}\n  ship: {children: [{id: a, prefab: gun}, {id: b, prefab: gun}, {}]}\nentities:\n  - id: s\n    prefab: ship\n    parts:\n      a: removed\n      b/muzzle: \"removed\"\n      \"0\": {visible: false}\n  - prefab: ship\n    parts: {a: removed, a/muzzle: removed, b: remove, c: removed, \"0\": [removed]}\n",
			// Prefab trees far past the fuzz limits: refused before expanding.
			"prefabs:\n  a: {children: [{prefab: b}, {prefab: b}, {prefab: b}, {prefab: b}]}\n  b: {children: [{prefab: c}, {prefab: c}, {prefab: c}, {prefab: c}]}\n  c: {children: [{prefab: d}, {prefab: d}, {prefab: d}, {prefab: d}]}\n  d: {children: [{prefab: e}, {prefab: e}, {prefab: e}, {prefab: e}]}\n  e: {children: [{prefab: f}, {prefab: f}, {prefab: f}, {prefab: f}]}\n  f: {children: [{}, {}, {}, {}]}\nentities:\n  - prefab: a\n",
			"prefabs:\n  a: {prefab: b, children: [{prefab: b}]}\n  b: {prefab: c, children: [{prefab: c}]}\n  c: {prefab: d, children: [{prefab: d}]}\n  d: {prefab: e, children: [{prefab: e}]}\n  e: {prefab: f, children: [{prefab: f}]}\n  f: {prefab: g, children: [{prefab: g}]}\n  g: {prefab: h, children: [{prefab: h}]}\n  h: {prefab: i, children: [{prefab: i}]}\n  i: {prefab: j, children: [{prefab: j}]}\n  j: {prefab: k, children: [{prefab: k}]}\n  k: {prefab: l, children: [{prefab: l}]}\n  l: {children: [{id: x}]}\nentities:\n  - {prefab: a, parts: {x: removed}}\n",
		},
		"xml": {
			`<scene><prefab name="gun" class="gun"><entity id="muzzle" position="0 1 0"/></prefab><prefab name="ship"><entity id="gun-left" prefab="gun"/></prefab><prefab name="big" prefab="ship" scale="2 2 2"/><entity id="f1" prefab="big"><part path="gun-left/muzzle" scale="3 3 3"/><entity id="pilot"/></entity></scene>`,
			`<scene><prefab name="a" prefab="b"/><prefab name="b" prefab="a"/><entity prefab="a"><part path="missing"/></entity><part path="x"/></scene>`,
			`<scene><prefab name="gun"><entity id="muzzle"/></prefab><prefab name="ship"><entity id="a" prefab="gun"/><entity id="b" prefab="gun"/><entity/></prefab><entity id="s" prefab="ship"><removed path="a"/><removed path="b/muzzle"/><part path="0" visible="false"/></entity><entity prefab="ship"><removed path="a"/><part path="a/muzzle"/><removed/><removed path="c" x="1"><entity/></removed></entity><removed path="a"/></scene>`,
			`<scene><prefab name="a"><entity prefab="b"/><entity prefab="b"/><entity prefab="b"/><entity prefab="b"/></prefab><prefab name="b"><entity prefab="c"/><entity prefab="c"/><entity prefab="c"/><entity prefab="c"/></prefab><prefab name="c"><entity prefab="d"/><entity prefab="d"/><entity prefab="d"/><entity prefab="d"/></prefab><prefab name="d"><entity prefab="e"/><entity prefab="e"/><entity prefab="e"/><entity prefab="e"/></prefab><prefab name="e"><entity/><entity/><entity/><entity/></prefab><entity prefab="a"/></scene>`,
		},
	}
	return scenes[ext]
}
