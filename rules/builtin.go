package rules

// builtins returns the definitions of the built-in rules. They are
// registered by Builtin exactly as a user registers a rule: each Def holds
// its names, argument counts, types and Compile function, and nothing else
// in the package knows about them.
func builtins() []Def {
	return []Def{
		// Sizes: minmax.go.
		{Name: "min", MinArgs: 1, MaxArgs: 1, Types: sizeKinds, Compile: compileMin, NoPanic: true},
		{Name: "max", MinArgs: 1, MaxArgs: 1, Types: sizeKinds, Compile: compileMax, NoPanic: true},
		{Name: "range", Aliases: []string{"minmax"}, MinArgs: 2, MaxArgs: 2, Types: sizeKinds, Compile: compileRange, NoPanic: true},

		// String formats: format.go.
		{Name: "url", Types: stringKinds, Compile: formatRule("url", isURL, "must be a valid URL"), NoPanic: true},
		{Name: "email", Types: stringKinds, Compile: formatRule("email", isEmail, "must be a valid email address"), NoPanic: true},
		{Name: "date", Types: stringKinds, Compile: formatRule("date", isDateString, "must be a valid date (YYYY-MM-DD or YYYY/M/D)"), NoPanic: true},
		{Name: "time", Types: stringKinds, Compile: formatRule("time", isClock, "must be a valid time (HH:mm)"), NoPanic: true},

		// Patterns: regex.go.
		{Name: "regex", MinArgs: 1, MaxArgs: 1, Types: stringKinds, Compile: compileRegex, NoPanic: true},

		// Input types: typecheck.go.
		{Name: "num", Aliases: []string{"number"}, Types: numberKinds, Implied: Kinds(Int, Float), Compile: predicateRule("num", isNumber, "must be a number"), NoPanic: true},
		{Name: "float", Types: numberKinds, Implied: Kinds(Int, Float), Compile: predicateRule("float", isNumber, "must be a number"), NoPanic: true},
		{Name: "bool", Aliases: []string{"boolean"}, Types: boolKinds, Implied: Kinds(Bool), Compile: predicateRule("bool", isBoolean, "must be a boolean"), NoPanic: true},
		{Name: "timestamp", Aliases: []string{"datetime"}, Types: timestampKinds, Implied: Kinds(Time), Compile: predicateRule("timestamp", isTimestamp, "must be a date or timestamp"), NoPanic: true},
	}
}
