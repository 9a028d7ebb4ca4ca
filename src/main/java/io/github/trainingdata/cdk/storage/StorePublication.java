package io.github.trainingdata.cdk.storage;

import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.SynthRule;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.ArnFormat;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.ssm.ParameterTier;
import software.amazon.awscdk.services.ssm.StringParameter;
import software.constructs.Construct;
import software.constructs.IConstruct;

/**
 * What training jobs need of a store that lives in another stack, published by the store's own stack under a stable,
 * deterministic name: an SSM parameter {@code /training-data/stores/<construct path, '/' as '.'>} holding a small JSON
 * document ({@code Store}, {@code FileSystemType}, {@code FileSystemId}, {@code MountName}, {@code DnsName},
 * {@code AvailabilityZone}, {@code Subnets}). A training execution and an SDK launch read it when they start, so a
 * replacement of the store (a new file system id, mount name, Availability Zone or data subnet) changes only this
 * parameter's value, never a value another stack imports or reads at deploy time.
 *
 * <p>The publication is the store's sibling ({@code <store id>Publication}), not its child, so that it can be updated
 * after what must come first ({@link #publishAfter}: the cache's preload), while the preload still depends on
 * everything under the cache: a replaced cache is published once its warm-up has started (or, when the deploy waits
 * for it, finished), and no execution reads it cold.
 *
 * <p>The trade-off: a wrong or missing value now fails at run time (the execution or launch names the store and
 * the parameter) instead of at deploy.
 */
public final class StorePublication extends Construct {
    /** The first part of every publication's parameter name. */
    public static final String NAME_PREFIX = "/training-data/stores/";
    /** The document member that names the store's construct path. */
    public static final String STORE = "Store";
    /** The document member with the file system's id. */
    public static final String FILE_SYSTEM_ID = "FileSystemId";
    /** The document member with the Lustre mount name. */
    public static final String MOUNT_NAME = "MountName";
    /** The document member with the subnets jobs that read the store run in. */
    public static final String SUBNETS = "Subnets";
    static final SynthRule UNIQUE_NAME = SynthRule.of("STORE_PUBLICATION_UNIQUE", "LustreCache, EfsStore",
            "publication name",
            "a name no other store of the app publishes under (construct paths map to names with '/' as '.' and "
                    + "characters outside [A-Za-z0-9_.-] as '-')",
            "library (one SSM parameter per name: a second one with the same name fails the deploy)");
    private static final String ID_SUFFIX = "Publication";

    private final IConstruct store;
    private final String parameterName;
    private final StringParameter parameter;

    private StorePublication(Construct store, String parameterName, Map<String, Object> document) {
        super((Construct) store.getNode().getScope(), idOf(store));
        this.store = store;
        this.parameterName = parameterName;
        this.parameter = StringParameter.Builder.create(this, "Resource")
                .parameterName(parameterName)
                .description("What training jobs read of " + store.getNode().getPath() + " when they start")
                .stringValue(Stack.of(store).toJsonString(document))
                .tier(ParameterTier.STANDARD)
                .build();
    }

    /**
     * The publication of {@code store}, created on first use with {@code document} (members in order).
     *
     * @throws ConfigurationError when another store of the app already publishes under the same name
     */
    static StorePublication of(Construct store, Map<String, Object> document) {
        StorePublication existing = existing(store);
        if (existing != null) {
            return existing;
        }
        String name = nameOf(store);
        for (IConstruct other : store.getNode().getRoot().getNode().findAll()) {
            if (other instanceof StorePublication published && published.parameterName.equals(name)) {
                throw ConfigurationError.of(UNIQUE_NAME, store, "publication name", name,
                        "a name no other store publishes under (" + published.store.getNode().getPath()
                                + " does): give one of them another construct id");
            }
        }
        return new StorePublication(store, name, new LinkedHashMap<>(document));
    }

    /** @return the publication of {@code store}, or null before its first use */
    static StorePublication existing(IConstruct store) {
        return store.getNode().getScope().getNode().tryFindChild(idOf(store)) instanceof StorePublication found
                ? found : null;
    }

    private static String idOf(IConstruct store) {
        return store.getNode().getId() + ID_SUFFIX;
    }

    /**
     * Updates the parameter only after {@code first} (for a Lustre cache: its preload, so that training reads a
     * replaced cache once its warm-up is current).
     *
     * @param first what must be deployed before the parameter
     */
    public void publishAfter(software.constructs.IDependable first) {
        parameter.getNode().addDependency(first);
    }

    /** @return the parameter name {@code store} publishes under: its construct path, '/' as '.', made SSM-safe */
    static String nameOf(IConstruct store) {
        List<String> parts = List.of(store.getNode().getPath().split("/"));
        return NAME_PREFIX + String.join(".", parts.stream().map(p -> p.replaceAll("[^A-Za-z0-9_.-]", "-")).toList());
    }

    /** @return the store that publishes */
    public IConstruct getStore() {
        return store;
    }

    /** @return the parameter's name: a literal, the same in every stack */
    public String getParameterName() {
        return parameterName;
    }

    /** @return the parameter */
    public StringParameter getParameter() {
        return parameter;
    }

    /**
     * The parameter's ARN as {@code reader}'s stack names it: built from the literal name and the reader's own
     * partition, Region and account, so no value crosses stacks.
     *
     * @param reader a construct in the stack that reads the parameter
     * @return the ARN
     */
    public String parameterArn(IConstruct reader) {
        return Stack.of(reader).formatArn(ArnComponents.builder().service("ssm").resource("parameter")
                .resourceName(parameterName.substring(1)).arnFormat(ArnFormat.SLASH_RESOURCE_NAME).build());
    }
}
