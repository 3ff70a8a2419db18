package registry

// TemplatesDirName is the directory a kit root keeps its templates in:
// the files `gates init` seeds a consumer's own files from.
const TemplatesDirName = "templates" // consumer-value-exempt: the kit's own template-tree convention; the authoring tree relocates it with GATE_SDK_KIT_TEMPLATES_DIR

// KitTemplatesKnob names the knob that relocates the gate-sdk kit's
// templates: in the tree that authors the kit they sit at the module's
// top-level templates/, outside the kit root, as its fixture pairs do.
const KitTemplatesKnob = "GATE_SDK_KIT_TEMPLATES_DIR"

// KitTemplatesDirs answers each kit root's template tree, index-aligned
// with roots: <root>/templates, except that a non-empty override (the
// words of KitTemplatesKnob) names the first root's, gate-sdk's. More
// than one word is refused: the knob names one directory.
func KitTemplatesDirs(roots []string, override []string) ([]string, error) {
	return kitDirs(roots, override, TemplatesDirName, KitTemplatesKnob, "template tree")
}
