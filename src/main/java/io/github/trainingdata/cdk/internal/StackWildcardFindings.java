package io.github.trainingdata.cdk.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awscdk.Stack;
import software.constructs.Construct;
import software.constructs.IConstruct;

/**
 * The wildcard findings ({@link WildcardFindings}) of one stack, worked out in one validation when the app is
 * validated: every resource that holds a token resolved in one jsii call, then each scope's acknowledgements in one
 * call. One validation per stack, not one per scope: a validation is a callback from aws-cdk-lib's node process into
 * the JVM inside {@code app.synth()}, and each cost a cold synth several milliseconds (docs/performance.md). A
 * construct without resources at the stack's root ({@value #ID}), made by the first finding.
 */
final class StackWildcardFindings extends Construct {
    /** The construct's id at the stack's root. */
    static final String ID = "TrainingDataWildcardFindings";

    private final Stack stack;
    private final List<WildcardFindings> findings = new ArrayList<>();

    private StackWildcardFindings(Stack stack) {
        super(stack, ID);
        this.stack = stack;
        getNode().addValidation(() -> {
            acknowledgeAll();
            return List.of();
        });
    }

    /**
     * @param scope any construct of the stack
     * @return the stack's findings, made by the first caller
     */
    static StackWildcardFindings of(IConstruct scope) {
        Stack stack = Stack.of(scope);
        IConstruct existing = stack.getNode().tryFindChild(ID);
        return existing instanceof StackWildcardFindings shared ? shared : new StackWildcardFindings(stack);
    }

    /** Adds a scope's findings, acknowledged when the app is validated. */
    void add(WildcardFindings scopeFindings) {
        findings.add(scopeFindings);
    }

    private void acknowledgeAll() {
        // Each resource resolved as a value of its own (a map's values: in a list, one list token would make the
        // whole list one).
        Set<String> tokens = new LinkedHashSet<>();
        findings.forEach(f -> tokens.addAll(f.tokens()));
        Map<String, Object> resolved = new HashMap<>();
        if (!tokens.isEmpty()) {
            Map<String, String> keyed = new LinkedHashMap<>();
            tokens.forEach(token -> keyed.put("r" + keyed.size(), token));
            Map<?, ?> values = (Map<?, ?>) stack.resolve(keyed);
            keyed.forEach((key, token) -> resolved.put(token, values.get(key)));
        }
        findings.forEach(f -> f.record(resolved));
    }
}
