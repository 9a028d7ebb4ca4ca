package io.github.trainingdata.cdk.training;

import static io.github.trainingdata.cdk.training.AslStates.assignPass;
import static io.github.trainingdata.cdk.training.AslStates.choice;
import static io.github.trainingdata.cdk.training.AslStates.fail;
import static io.github.trainingdata.cdk.training.AslStates.transientErrors;

import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.SynthRule;
import io.github.trainingdata.cdk.internal.Deployments;
import io.github.trainingdata.cdk.launch.DataStoreBindings;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.storage.EfsStore;
import io.github.trainingdata.cdk.storage.LustreCache;
import io.github.trainingdata.cdk.storage.StorePublication;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.Stage;
import software.amazon.awscdk.Token;
import software.amazon.awscdk.services.ec2.ISubnet;
import software.constructs.IConstruct;

/**
 * The file systems (Lustre caches and EFS stores) a job reads from another stack, and the network of another stack it
 * runs in, bound when each execution or launch starts instead of at deploy: nothing a replacement of the store or a
 * data-AZ move changes (file system id, mount name, Availability Zone, the subnets jobs run in, the training security
 * group) crosses the stack boundary. The store's stack publishes it
 * ({@link StorePublication}); the definition's stack then depends on the store's stack, so that
 * {@code cdk deploy --all} deploys the store's first. In one stack a store is referenced plainly (a change shows in
 * {@code cdk diff}).
 *
 * <p>The request document keeps a placeholder {@code {{DataStore:<parameter name>:<member>}}} wherever a published
 * value goes (the SDK launcher fills them in, {@code io.github.trainingdata.cdk.launch.DataStoreBindings}); the state
 * machine reads each publication before it names the job, checks it, and renders the channels and subnets from it.
 */
final class StoreBinding {
    static final SynthRule STORE_STACK = SynthRule.of("TRAINING_STORE_STACK", "TrainingJobDefinition",
            "channels[].cache, channels[].store, network",
            "a cache, EFS store or network in the definition's stack, or in a stack of the same stage that does not "
                    + "depend on the definition's stack (the definition's stack is made to depend on it)",
            "library (the cache's or network's stack must deploy, and publish, before the definition's)");
    static final SynthRule STORE_PUBLISHED = SynthRule.of("TRAINING_STORE_PUBLISHED", "TrainingJobDefinition",
            "channels[].cache, channels[].store, network",
            "a cache, EFS store or network of another stack in the definition's account and Region, where its "
                    + "publication (an SSM parameter) can be read by name",
            "SSM API reference, GetParameter (a parameter is read by name, in the caller's account and Region)");
    static final SynthRule REQUEST_IN_PARAMETER = SynthRule.of("TRAINING_STORE_REQUEST_IN_PARAMETER",
            "TrainingJobDefinition", "channels[].cache, channels[].store, network",
            "a cache, EFS store or network of another stack only with deploy-time values in the request of at most "
                    + "8192 bytes each (the request is split across SSM parameters between whole values)",
            "AWS Systems Manager Parameter Store, advanced parameter value limit (8 KB); library (the state machine "
                    + "renders a bound request at run time, so the SDK launcher reads the parameters')");
    /** The error of an execution whose store's parameter does not exist. */
    static final String NOT_PUBLISHED = "DataStoreNotPublished";
    /** The error of an execution whose store's document lacks a value a job needs, or has a malformed one. */
    static final String INCOMPLETE = "DataStoreIncomplete";
    static final String BIND_STATE = "BindDataStores";
    static final String CHECK_STATE = "CheckDataStores";
    static final String CHECK_DOCUMENTS_STATE = "CheckDataStoreDocuments";
    static final String DOCUMENTS_OK_STATE = "DataStoreDocumentsOk";
    static final String COMPLETE_STATE = "DataStoresComplete";
    /** Where {@link #BIND_STATE} keeps the channels and subnets it rendered, in the state's output. */
    static final String BINDING = "dataStoreBinding";
    private static final String PARAMETER_NOT_FOUND = "Ssm.ParameterNotFoundException";
    /** The publication's member with the cache's Availability Zone (the bound subnets' zone). */
    private static final String ZONE = StorePublication.AVAILABILITY_ZONE;
    private static final StoreBinding NONE = new StoreBinding(List.of(), Map.of(), null, null, null);

    /**
     * A store read at run time (a {@link LustreCache} or an {@link EfsStore}), or the job's {@link TrainingNetwork}:
     * its publication, and its index (its document's place in the execution's state).
     */
    record BoundStore(IConstruct cache, StorePublication publication, int index) {
        /** @return whether the store is a Lustre cache, whose document also holds the mount name */
        boolean lustre() {
            return cache instanceof LustreCache;
        }

        /** @return whether this is the job's network, whose document holds subnets and a security group, no file system */
        boolean network() {
            return cache instanceof TrainingNetwork;
        }

        /** @return what a message calls the owner of the construct: the stack that owns the cache, store or network */
        String kind() {
            return lustre() ? "cache" : network() ? "network" : "store";
        }

        /** @return the state path of the parsed document */
        String document() {
            return "$.dataStore" + index + ".Document";
        }

        /** @return the request document's placeholder for {@code member} of the publication */
        String placeholder(String member) {
            return "{{DataStore:" + publication.getParameterName() + ":" + member + "}}";
        }
    }

    private final List<BoundStore> stores;
    private final Map<Integer, BoundStore> byChannel;
    private final BoundStore subnets;
    private final BoundStore network;
    private final String fallbackSubnets;

    private StoreBinding(List<BoundStore> stores, Map<Integer, BoundStore> byChannel, BoundStore subnets,
            BoundStore network, String fallbackSubnets) {
        this.stores = stores;
        this.byChannel = byChannel;
        this.subnets = subnets;
        this.network = network;
        this.fallbackSubnets = fallbackSubnets;
    }

    /**
     * Binds the Lustre and EFS channels of {@code spec} whose store lives in another stack than {@code definition},
     * and the job's network when it lives in another stack: checks that each one's stack can deploy first, makes the
     * definition's stack depend on it, and publishes it.
     *
     * @throws ConfigurationError when a store's or the network's stack cannot deploy first or publishes out of reach
     */
    static StoreBinding of(IConstruct definition, TrainingJobSpec spec, JobPlacement placement) {
        Stack own = Stack.of(definition);
        List<BoundStore> stores = new ArrayList<>();
        Map<Integer, BoundStore> byChannel = new LinkedHashMap<>();
        List<TrainingChannel> channels = spec.getChannels();
        for (int i = 0; i < channels.size(); i++) {
            IConstruct cache = fileSystemStore(channels.get(i));
            if (cache == null || !crossesStacks(definition, cache)) {
                continue; // one deployment: a nested stack gets its parent's values in the same update
            }
            BoundStore bound = stores.stream().filter(s -> s.cache() == cache).findFirst().orElse(null);
            if (bound == null) {
                boolean efs = channels.get(i) instanceof EfsChannel;
                checkReachable(definition, own, Stack.of(cache), "channels[" + i + "]." + (efs ? "store" : "cache"),
                        cache, efs ? "an EFS store" : "a cache");
                own.addStackDependency(Stack.of(cache), "reads " + cache.getNode().getPath() + " when each job starts");
                StorePublication publication = cache instanceof LustreCache lustre ? lustre.publication()
                        : ((EfsStore) cache).publication();
                bound = new BoundStore(cache, publication, stores.size());
                stores.add(bound);
            }
            byChannel.put(i, bound);
        }
        TrainingNetwork network = placement.network();
        if (network == null || !crossesStacks(definition, network)) {
            return stores.isEmpty() ? NONE : new StoreBinding(List.copyOf(stores), byChannel, null, null, null);
        }
        checkReachable(definition, own, Stack.of(network), "network", network, "a network");
        own.addStackDependency(Stack.of(network), "runs its jobs in " + network.getNode().getPath());
        BoundStore bound = new BoundStore(network, StorePublication.of(network), stores.size());
        stores.add(bound);
        // The subnets come with the store the job mounts (its publication names the subnet in the store's zone), so
        // an execution never reads a new data subnet with an old file system; else from the network's.
        BoundStore subnets = spec.getVpcSubnets() != null ? null : stores.get(0);
        return new StoreBinding(List.copyOf(stores), byChannel, subnets, bound, fallbackSubnets(spec, placement));
    }

    /**
     * @return the network's member that lists the S3 fallback's subnets when the fallback runs in every storage subnet
     *     ({@value StorePublication#STORAGE_SUBNETS}) or only in the data subnet ({@value StorePublication#SUBNETS});
     *     null without a fallback, or when it runs in another choice of subnets (named at deploy time)
     */
    private static String fallbackSubnets(TrainingJobSpec spec, JobPlacement placement) {
        if (CapacityAttempts.s3Fallback(spec) == null) {
            return null;
        }
        TrainingNetwork network = placement.network();
        List<String> fallback = ids(CapacityAttempts.fallbackSubnets(spec, placement));
        if (fallback.equals(ids(network.getVpc().selectSubnets(network.getStorageSubnets()).getSubnets()))) {
            return StorePublication.STORAGE_SUBNETS;
        }
        return fallback.equals(ids(List.of(network.getDataSubnet()))) ? StorePublication.SUBNETS : null;
    }

    private static List<String> ids(List<ISubnet> subnets) {
        return subnets.stream().map(ISubnet::getSubnetId).toList();
    }

    /** @return the Lustre cache or EFS store {@code channel} mounts, or null for an S3 channel */
    private static IConstruct fileSystemStore(TrainingChannel channel) {
        if (channel instanceof LustreChannel lustre) {
            return lustre.getCache();
        }
        return channel instanceof EfsChannel efs ? efs.getStore() : null;
    }

    /** @return whether {@code store} deploys separately from {@code reader}, which then binds to it at run time */
    static boolean crossesStacks(IConstruct reader, IConstruct store) {
        return Deployments.separate(reader, store);
    }

    private static void checkReachable(IConstruct definition, Stack own, Stack theirs, String field, IConstruct cache,
            String kind) {
        if (differ(own.getRegion(), theirs.getRegion()) || differ(own.getAccount(), theirs.getAccount())) {
            throw ConfigurationError.of(STORE_PUBLISHED, definition, field, cache.getNode().getPath(),
                    kind + " in the definition's account and Region (" + own.getAccount() + ", " + own.getRegion()
                            + "): " + theirs.getStackName() + " publishes it in " + theirs.getAccount() + ", "
                            + theirs.getRegion() + ", so nobody publishes it where the definition runs");
        }
        if (Stage.of(own) != Stage.of(theirs) || dependsOn(theirs, own, new ArrayList<>())) {
            throw ConfigurationError.of(STORE_STACK, definition, field, cache.getNode().getPath(),
                    kind + " in a stack of the same stage that does not depend on " + own.getStackName()
                            + " (the definition's stack must depend on its stack, which then deploys first)");
        }
    }

    private static boolean differ(String a, String b) {
        return !Token.isUnresolved(a) && !Token.isUnresolved(b) && !a.equals(b);
    }

    /** @return whether {@code stack} depends, directly or through others, on {@code other} */
    private static boolean dependsOn(Stack stack, Stack other, List<Stack> seen) {
        for (Stack dependency : stack.getDependencies()) {
            if (dependency == other || !seen.contains(dependency) && seen.add(dependency)
                    && dependsOn(dependency, other, seen)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A bound request is rendered by the state machine at run time, so the SDK launcher cannot read it from the state
     * machine's definition: it is split across SSM parameters, which works unless one deploy-time value alone may
     * exceed a parameter.
     */
    void checkRequestSplit(IConstruct definition, RequestSplit split) {
        if (stores.isEmpty() || split.fits()) {
            return;
        }
        String field = "network";
        IConstruct first = network == null ? null : network.cache();
        if (!byChannel.isEmpty()) {
            int channel = byChannel.keySet().iterator().next();
            field = "channels[" + channel + "]." + (byChannel.get(channel).lustre() ? "cache" : "store");
            first = byChannel.get(channel).cache();
        }
        throw ConfigurationError.of(REQUEST_IN_PARAMETER, definition, field, first.getNode().getPath()
                + " (another stack's) for a request whose deploy-time value " + split.largestValuePath()
                + " may have " + (split.largestValue() >= RequestDocumentBound.UNBOUNDED ? "an unknown number of"
                        : Long.toString(split.largestValue())) + " bytes", "a store and network of this stack, or "
                + "deploy-time values of at most " + TrainingJobDefinition.MAX_PARAMETER_DOCUMENT_BYTES + " bytes "
                + "each: the state machine renders the request at run time, so the SDK launcher reads it from SSM "
                + "parameters, split between whole deploy-time values");
    }

    /** @return whether nothing is bound at run time */
    boolean isEmpty() {
        return stores.isEmpty();
    }

    /** @return whether some channel is bound at run time (a store of another stack) */
    boolean bindsChannels() {
        return !byChannel.isEmpty();
    }

    /** @return whether the training security group is bound at run time (the network is another stack's) */
    boolean bindsSecurityGroup() {
        return network != null;
    }

    /** @return whether the S3 fallback's subnets are bound at run time (from the network's publication) */
    boolean bindsFallbackSubnets() {
        return fallbackSubnets != null;
    }

    /** @return whether the job's subnets are bound at run time (the network's data subnet, in another stack) */
    boolean bindsSubnets() {
        return subnets != null;
    }

    /** @return the publications read, in order */
    List<StorePublication> publications() {
        return stores.stream().map(BoundStore::publication).toList();
    }

    /** @return channel {@code index} as the request document holds it: rendered, or with placeholders when bound */
    Map<String, Object> requestChannel(int index, TrainingChannel channel) {
        BoundStore bound = byChannel.get(index);
        if (bound == null) {
            return channel.render();
        }
        if (channel instanceof EfsChannel efs) {
            return fileSystemChannel(efs, bound.placeholder(StorePublication.FILE_SYSTEM_ID), null,
                    efs.getDirectoryPath(), null);
        }
        LustreChannel lustre = (LustreChannel) channel;
        return fileSystemChannel(lustre, bound.placeholder(StorePublication.FILE_SYSTEM_ID), null,
                "/" + bound.placeholder(StorePublication.MOUNT_NAME) + below(lustre), null);
    }

    /** @return VpcConfig.Subnets as the request document holds it: one placeholder for the published list */
    String requestSubnets() {
        return subnets.placeholder(StorePublication.SUBNETS);
    }

    /** @return the training security group's id as the request document holds it: a placeholder */
    String requestSecurityGroup() {
        return network.placeholder(StorePublication.SECURITY_GROUP_ID);
    }

    /** @return the S3 fallback's subnets as the capacity plan holds them: one placeholder for the published list */
    String requestFallbackSubnets() {
        return network.placeholder(fallbackSubnets);
    }

    /** @return the S3 fallback's Availability Zones as the capacity plan holds them: placeholders */
    Object requestFallbackZones() {
        return StorePublication.SUBNETS.equals(fallbackSubnets)
                ? List.of(network.placeholder(StorePublication.AVAILABILITY_ZONE))
                : network.placeholder(StorePublication.STORAGE_ZONES);
    }

    /** @return the first attempt's Availability Zones as the capacity plan holds them: a placeholder */
    List<String> requestZones() {
        return List.of(subnets.placeholder(StorePublication.AVAILABILITY_ZONE));
    }

    private static String below(LustreChannel channel) {
        String below = channel.location().getPathBelowMount();
        return below.isEmpty() ? "" : "/" + below;
    }

    /** A FileSystemDataSource channel, each of id and path either literal or (the {@code .$} form) a state path. */
    private static Map<String, Object> fileSystemChannel(FileSystemChannel channel, String id, String idPath,
            String directory, String directoryPath) {
        Map<String, Object> fs = new LinkedHashMap<>();
        fs.put(id != null ? "FileSystemId" : "FileSystemId.$", id != null ? id : idPath);
        fs.put("FileSystemAccessMode", channel.getAccessMode().apiValue());
        fs.put("FileSystemType", channel.fileSystemType());
        fs.put(directory != null ? "DirectoryPath" : "DirectoryPath.$", directory != null ? directory : directoryPath);
        Map<String, Object> rendered = new LinkedHashMap<>();
        rendered.put("ChannelName", channel.getName());
        rendered.put("DataSource", Map.of("FileSystemDataSource", fs));
        rendered.put("InputMode", ChannelInputMode.FILE.apiValue());
        return rendered;
    }

    /**
     * Adds the states that read and check every publication, then render the channels and subnets into
     * {@code $.dataStoreBinding}; they run after the prerequisite waits (a held-back job reads the cache its warm-up
     * warmed).
     *
     * @return the first state, or {@code next} when nothing is bound
     */
    String addStates(Map<String, Object> states, String next, String partition, List<TrainingChannel> channels,
            List<String> extraGroups) {
        if (stores.isEmpty()) {
            return next;
        }
        Map<String, Object> documents = new LinkedHashMap<>();
        Map<String, Object> complete = new LinkedHashMap<>();
        List<Map<String, Object>> failures = new ArrayList<>();
        for (BoundStore store : stores) {
            String after = store.index() + 1 < stores.size() ? read(store.index() + 1) : CHECK_DOCUMENTS_STATE;
            states.put(read(store.index()), readState(store, after, partition));
            String failed = INCOMPLETE + store.index();
            List<String> members = members(store);
            String value = "$states.input.dataStore" + store.index() + ".Value";
            documents.put(ok(store), "{% " + matches(value, DataStoreBindings.DOCUMENT) + " %}");
            complete.put(ok(store), "{% " + String.join(" and ", members.stream().map(m -> valid(store, m)).toList())
                    + " %}");
            failures.add(AslStates.rule(isFalse(ok(store)), failed));
            String what = store.kind();
            states.put(NOT_PUBLISHED + store.index(), fail(NOT_PUBLISHED, "SSM parameter "
                    + store.publication().getParameterName() + ", where " + store.cache().getNode().getPath()
                    + " publishes what jobs read of it, does not exist: deploy the stack that owns the "
                    + what + " (" + Stack.of(store.cache()).getStackName() + ") first"));
            states.put(failed, fail(INCOMPLETE, "SSM parameter " + store.publication().getParameterName()
                    + " does not hold what jobs need of " + store.cache().getNode().getPath() + ": a JSON object with "
                    + String.join(", ", members.stream().map(StoreBinding::described).toList()) + ". Is its stack "
                    + "half-deployed, or was the parameter changed by hand? Deploy the stack that owns the " + what
                    + " again"));
        }
        // JSONata Pass states assign the checks and JSONPath Choice states read them: a JSONata Choice is beyond statelint.
        states.put(CHECK_DOCUMENTS_STATE, assignPass(
                "Whether each publication is a JSON object (it is parsed only then)", documents, DOCUMENTS_OK_STATE));
        states.put(DOCUMENTS_OK_STATE, choice(null, failures, parse(0)));
        for (BoundStore store : stores) {
            Map<String, Object> document = new LinkedHashMap<>();
            document.put("Document.$", "States.StringToJson($.dataStore" + store.index() + ".Value)");
            Map<String, Object> parse = new LinkedHashMap<>();
            parse.put("Type", "Pass");
            parse.put("Comment", "Parse what " + store.cache().getNode().getPath() + " publishes");
            parse.put("Parameters", document);
            parse.put("ResultPath", "$.dataStore" + store.index());
            parse.put("Next", store.index() + 1 < stores.size() ? parse(store.index() + 1) : CHECK_STATE);
            states.put(parse(store.index()), parse);
        }
        states.put(CHECK_STATE, assignPass("Whether each publication holds what the job reads, each value as the SDK "
                + "launcher checks it", complete, COMPLETE_STATE));
        states.put(COMPLETE_STATE, choice(null, failures, BIND_STATE));

        Map<String, Object> binding = new LinkedHashMap<>();
        if (bindsChannels()) {
            List<Map<String, Object>> rendered = new ArrayList<>();
            for (int i = 0; i < channels.size(); i++) {
                BoundStore store = byChannel.get(i);
                if (store == null) {
                    rendered.add(channels.get(i).render());
                    continue;
                }
                if (channels.get(i) instanceof EfsChannel efs) {
                    rendered.add(fileSystemChannel(efs, null, path(store, StorePublication.FILE_SYSTEM_ID),
                            efs.getDirectoryPath(), null));
                    continue;
                }
                LustreChannel lustre = (LustreChannel) channels.get(i);
                rendered.add(fileSystemChannel(lustre, null, path(store, StorePublication.FILE_SYSTEM_ID), null,
                        "States.Format('/{}" + TrainingStateMachine.formatLiteral(below(lustre)) + "', "
                                + path(store, StorePublication.MOUNT_NAME) + ")"));
            }
            binding.put("InputDataConfig", rendered);
        }
        if (subnets != null) {
            binding.put("Subnets.$", path(subnets, StorePublication.SUBNETS));
            binding.put("AvailabilityZones.$", "States.Array(" + path(subnets, ZONE) + ")");
        }
        if (network != null) {
            List<String> groups = new ArrayList<>(List.of(path(network, StorePublication.SECURITY_GROUP_ID)));
            extraGroups.forEach(group -> groups.add("'" + group + "'"));
            binding.put("SecurityGroupIds.$", "States.Array(" + String.join(", ", groups) + ")");
        }
        if (fallbackSubnets != null) {
            binding.put("FallbackSubnets.$", path(network, fallbackSubnets));
            binding.put("FallbackAvailabilityZones.$", StorePublication.SUBNETS.equals(fallbackSubnets)
                    ? "States.Array(" + path(network, ZONE) + ")" : path(network, StorePublication.STORAGE_ZONES));
        }
        Map<String, Object> bind = new LinkedHashMap<>();
        bind.put("Type", "Pass");
        bind.put("Comment", "What the job reads of the stores and network of other stacks, as published now");
        bind.put("Parameters", binding);
        bind.put("ResultPath", "$." + BINDING);
        bind.put("Next", next);
        states.put(BIND_STATE, bind);
        return read(0);
    }

    /** @return the members of {@code store}'s document the execution reads, each checked before it binds */
    private List<String> members(BoundStore store) {
        List<String> members = new ArrayList<>();
        if (!store.network()) {
            members.add(StorePublication.FILE_SYSTEM_ID);
        }
        if (store.lustre()) {
            members.add(StorePublication.MOUNT_NAME);
        }
        if (store == subnets) {
            // BindDataStores reads both: a missing one would fail that Pass state with States.Runtime.
            members.add(StorePublication.SUBNETS);
            members.add(ZONE);
        }
        if (store == network) {
            members.add(StorePublication.SECURITY_GROUP_ID);
            if (fallbackSubnets != null && !members.contains(fallbackSubnets)) {
                members.add(fallbackSubnets);
                members.add(StorePublication.SUBNETS.equals(fallbackSubnets) ? ZONE : StorePublication.STORAGE_ZONES);
            }
        }
        return members;
    }

    private static String read(int index) {
        return "ReadDataStore" + index;
    }

    private static String parse(int index) {
        return "ParseDataStore" + index;
    }

    /** @return a JSONata expression: whether {@code member} of {@code store}'s parsed document is as the launcher wants */
    private static String valid(BoundStore store, String member) {
        String value = "$lookup($states.input.dataStore" + store.index() + ".Document, '" + member + "')";
        return switch (member) {
            case StorePublication.FILE_SYSTEM_ID -> matches(value, DataStoreBindings.FILE_SYSTEM_ID);
            case StorePublication.MOUNT_NAME -> matches(value, DataStoreBindings.MOUNT_NAME);
            case StorePublication.SECURITY_GROUP_ID -> matches(value, DataStoreBindings.SECURITY_GROUP_ID);
            case StorePublication.SUBNETS, StorePublication.STORAGE_SUBNETS -> list(value,
                    matches("$v", DataStoreBindings.SUBNET_ID));
            case StorePublication.STORAGE_ZONES -> list(value, "$type($v) = 'string'");
            default -> "$type(" + value + ") = 'string'";
        };
    }

    /** @return a JSONata expression: whether {@code value} is a string that {@code pattern} (anchored) matches */
    private static String matches(String value, String pattern) {
        return "($type(" + value + ") = 'string' ? $contains(" + value + ", /" + pattern + "/) : false)";
    }

    /** @return a JSONata expression: whether {@code value} is a non-empty list whose every {@code $v} is {@code valid} */
    private static String list(String value, String valid) {
        return "($type(" + value + ") = 'array' ? $count(" + value + ") > 0 and $count($filter(" + value
                + ", function($v) { $not(" + valid + ") })) = 0 : false)";
    }

    /** @return {@code member} as a failure's cause describes it */
    private static String described(String member) {
        return switch (member) {
            case StorePublication.FILE_SYSTEM_ID -> "FileSystemId (fs-...)";
            case StorePublication.MOUNT_NAME -> "MountName (1 to 8 letters, digits, '_' or '-')";
            case StorePublication.SECURITY_GROUP_ID -> "SecurityGroupId (sg-...)";
            case StorePublication.SUBNETS, StorePublication.STORAGE_SUBNETS -> member + " (a non-empty list of subnet-...)";
            case StorePublication.STORAGE_ZONES -> member + " (a non-empty list of zone names)";
            default -> member + " (a string)";
        };
    }

    /** @return the variable that says whether {@code store}'s publication passed the last check */
    private static String ok(BoundStore store) {
        return "dataStore" + store.index() + "Ok";
    }

    private static Map<String, Object> isFalse(String variable) {
        Map<String, Object> condition = new LinkedHashMap<>();
        condition.put("Variable", "$" + variable);
        condition.put("BooleanEquals", false);
        return condition;
    }

    private static String path(BoundStore store, String member) {
        return store.document() + "." + member;
    }

    /**
     * Reads one publication and parses its document; a missing parameter fails at once, throttling and other
     * transient errors are retried.
     */
    private static Map<String, Object> readState(BoundStore store, String next, String partition) {
        Map<String, Object> missing = new LinkedHashMap<>();
        missing.put("ErrorEquals", List.of(PARAMETER_NOT_FOUND));
        missing.put("Next", NOT_PUBLISHED + store.index());
        Map<String, Object> noRetry = new LinkedHashMap<>();
        noRetry.put("ErrorEquals", List.of(PARAMETER_NOT_FOUND));
        noRetry.put("MaxAttempts", 0);
        Map<String, Object> read = new LinkedHashMap<>();
        read.put("Type", "Task");
        read.put("Comment", "Read what " + store.cache().getNode().getPath() + " publishes, as it is now");
        read.put("Resource", "arn:" + partition + ":states:::aws-sdk:ssm:getParameter");
        read.put("Parameters", Map.of("Name", store.publication().getParameterName()));
        // Parsed only once CheckDataStoreDocuments found it JSON: a parse failure is States.Runtime, which no Catch takes.
        read.put("ResultSelector", Map.of("Value.$", "$.Parameter.Value"));
        read.put("ResultPath", "$.dataStore" + store.index());
        read.put("TimeoutSeconds", AslStates.CALL_TIMEOUT_SECONDS);
        read.put("Retry", List.of(noRetry, transientErrors()));
        read.put("Catch", List.of(missing));
        read.put("Next", next);
        return read;
    }
}
