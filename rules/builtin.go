package rules

// builtins returns the definitions of the built-in rules. They are
// registered by Builtin exactly as a user registers a rule: each Def holds
// its names, argument counts, types, Compile function and the hooks that
// tools read (Sample, Schema, Params), and nothing else in the package or
// the module knows about them.
func builtins() []Def {
	minSample, minSchema := sizeHooks(minBounds)
	maxSample, maxSchema := sizeHooks(maxBounds)
	rangeSample, rangeSchema := sizeHooks(rangeBounds)
	return []Def{
		// Sizes: minmax.go, hooks in minmax_hooks.go.
		{Name: "min", MinArgs: 1, MaxArgs: 1, Types: sizeKinds, Compile: compileMin, NoPanic: true,
			Sample: minSample, Schema: minSchema, Params: []string{"min"}},
		{Name: "max", MinArgs: 1, MaxArgs: 1, Types: sizeKinds, Compile: compileMax, NoPanic: true,
			Sample: maxSample, Schema: maxSchema, Params: []string{"max"}},
		{Name: "range", Aliases: []string{"minmax"}, MinArgs: 2, MaxArgs: 2, Types: sizeKinds, Compile: compileRange, NoPanic: true,
			Sample: rangeSample, Schema: rangeSchema, Params: []string{"min", "max"}},

		// Exact lengths: length.go.
		{Name: "len", MinArgs: 1, MaxArgs: 1, Types: lenKinds, Compile: compileLen, NoPanic: true,
			Sample: lenSample, Schema: lenSchema, Params: []string{"len"}},

		// Enumerations: in.go.
		{Name: "in", MinArgs: 1, MaxArgs: -1, Types: inKinds, Compile: compileIn, NoPanic: true,
			Sample: inSample, Schema: inSchema, Params: []string{"values"}},

		// Transforms of strings: transform.go.
		{Name: "trim", Types: stringKinds, Transform: stringTransformRule("trim", trimSpace), NoPanic: true,
			Sample: lowerSample},
		{Name: "lower", Types: stringKinds, Transform: stringTransformRule("lower", toLower), NoPanic: true,
			Sample: lowerSample},
		{Name: "upper", Types: stringKinds, Transform: stringTransformRule("upper", toUpper), NoPanic: true,
			Sample: upperSample},

		// String formats: format.go, hooks in format_hooks.go.
		{Name: "url", Types: stringKinds, Compile: formatRule("url", isURL, "must be a valid URL"), NoPanic: true,
			Sample: urlSample, Schema: urlSchema},
		{Name: "email", Types: stringKinds, Compile: formatRule("email", isEmail, "must be a valid email address"), NoPanic: true,
			Sample: emailSample, Schema: emailSchema},
		{Name: "date", Types: stringKinds, Compile: formatRule("date", isDateString, "must be a valid date (YYYY-MM-DD or YYYY/M/D)"), NoPanic: true,
			Sample: dateSample, Schema: dateSchema},
		{Name: "time", Types: stringKinds, Compile: formatRule("time", isClock, "must be a valid time (HH:mm)"), NoPanic: true,
			Sample: clockSample, Schema: clockSchema},

		// Patterns: regex.go, its sample generator in regex_sample.go.
		{Name: "regex", MinArgs: 1, MaxArgs: 1, Types: stringKinds, Compile: compileRegex, NoPanic: true,
			Sample: regexSample, Schema: regexSchema, Params: []string{"pattern"}},

		// Input types: typecheck.go.
		{Name: "num", Aliases: []string{"number"}, Types: numberKinds, Implied: Kinds(Int, Float), Compile: predicateRule("num", isNumber, "must be a number"), NoPanic: true,
			Sample: numSample, Schema: numSchema},
		{Name: "float", Types: numberKinds, Implied: Kinds(Int, Float), Compile: predicateRule("float", isNumber, "must be a number"), NoPanic: true,
			Sample: numSample, Schema: numSchema},
		{Name: "bool", Aliases: []string{"boolean"}, Types: boolKinds, Implied: Kinds(Bool), Compile: predicateRule("bool", isBoolean, "must be a boolean"), NoPanic: true,
			Sample: boolSample, Schema: boolSchema},
		{Name: "timestamp", Aliases: []string{"datetime"}, Types: timestampKinds, Implied: Kinds(Time), Compile: predicateRule("timestamp", isTimestamp, "must be a date or timestamp"), NoPanic: true,
			Sample: timestampSample, Schema: timestampSchema},
	}
}
