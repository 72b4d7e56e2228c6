/**
 * Hand-written checks of the SARIF 2.1.0 schema's important requirements (no network, no
 * schema validator dependency): required properties, enums, the objects that forbid unknown
 * properties, URI references, 1-based regions and ruleIndex consistency.
 */
const ALLOWED: Record<string, readonly string[]> = {
  sarifLog: ['$schema', 'version', 'runs', 'inlineExternalProperties', 'properties'],
  run: [
    'tool', 'invocations', 'conversion', 'language', 'versionControlProvenance', 'originalUriBaseIds', 'artifacts',
    'logicalLocations', 'graphs', 'results', 'automationDetails', 'runAggregates', 'baselineGuid', 'redactionTokens',
    'defaultEncoding', 'defaultSourceLanguage', 'newlineSequences', 'columnKind', 'externalPropertyFileReferences',
    'threadFlowLocations', 'taxonomies', 'addresses', 'translations', 'policies', 'webRequests', 'webResponses',
    'specialLocations', 'properties',
  ],
  tool: ['driver', 'extensions', 'properties'],
  toolComponent: [
    'guid', 'name', 'organization', 'product', 'productSuite', 'shortDescription', 'fullDescription', 'fullName', 'version',
    'semanticVersion', 'dottedQuadFileVersion', 'releaseDateUtc', 'downloadUri', 'informationUri', 'globalMessageStrings',
    'notifications', 'rules', 'taxa', 'locations', 'language', 'contents', 'isComprehensive', 'localizedDataSemanticVersion',
    'minimumRequiredLocalizedDataSemanticVersion', 'associatedComponent', 'translationMetadata', 'supportedTaxonomies', 'properties',
  ],
  reportingDescriptor: [
    'id', 'deprecatedIds', 'guid', 'deprecatedGuids', 'name', 'deprecatedNames', 'shortDescription', 'fullDescription',
    'messageStrings', 'defaultConfiguration', 'helpUri', 'help', 'relationships', 'properties',
  ],
  reportingConfiguration: ['enabled', 'level', 'rank', 'parameters', 'properties'],
  multiformatMessageString: ['text', 'markdown', 'properties'],
  message: ['text', 'markdown', 'id', 'arguments', 'properties'],
  result: [
    'ruleId', 'ruleIndex', 'rule', 'kind', 'level', 'message', 'analysisTarget', 'locations', 'guid', 'correlationGuid',
    'occurrenceCount', 'partialFingerprints', 'fingerprints', 'stacks', 'codeFlows', 'graphs', 'graphTraversals',
    'relatedLocations', 'suppressions', 'baselineState', 'rank', 'attachments', 'hostedViewerUri', 'workItemUris',
    'provenance', 'fixes', 'taxa', 'webRequest', 'webResponse', 'properties',
  ],
  location: ['id', 'physicalLocation', 'logicalLocations', 'message', 'annotations', 'relationships', 'properties'],
  physicalLocation: ['address', 'artifactLocation', 'region', 'contextRegion', 'properties'],
  artifactLocation: ['uri', 'uriBaseId', 'index', 'description', 'properties'],
  region: [
    'startLine', 'startColumn', 'endLine', 'endColumn', 'charOffset', 'charLength', 'byteOffset', 'byteLength', 'snippet',
    'message', 'sourceLanguage', 'properties',
  ],
  suppression: ['guid', 'kind', 'status', 'justification', 'location', 'properties'],
  invocation: [
    'commandLine', 'arguments', 'responseFiles', 'startTimeUtc', 'endTimeUtc', 'exitCode', 'ruleConfigurationOverrides',
    'notificationConfigurationOverrides', 'toolExecutionNotifications', 'toolConfigurationNotifications', 'exitCodeDescription',
    'exitSignalName', 'exitSignalNumber', 'processStartFailureMessage', 'executionSuccessful', 'machine', 'account',
    'processId', 'executableLocation', 'workingDirectory', 'environmentVariables', 'stdin', 'stdout', 'stderr',
    'stdoutStderr', 'properties',
  ],
  notification: ['locations', 'message', 'level', 'threadId', 'timeUtc', 'exception', 'descriptor', 'associatedRule', 'properties'],
};

const LEVELS = ['none', 'note', 'warning', 'error'];
type Obj = Record<string, unknown>;

export function sarifProblems(doc: unknown): string[] {
  const problems: string[] = [];
  const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
  const object = (v: unknown, kind: string, where: string, required: string[] = []): v is Obj => {
    if (!isObj(v)) {
      problems.push(`${where}: ${kind} must be an object`);
      return false;
    }
    for (const key of Object.keys(v)) if (!ALLOWED[kind]!.includes(key)) problems.push(`${where}: ${kind} has no property "${key}"`);
    for (const key of required) if (!(key in v)) problems.push(`${where}: ${kind} requires "${key}"`);
    if ('properties' in v && !isObj(v.properties)) problems.push(`${where}.properties: must be a property bag (object)`);
    return true;
  };
  const message = (v: unknown, where: string, kind = 'message') => {
    if (object(v, kind, where) && typeof v.text !== 'string' && (kind !== 'message' || typeof v.id !== 'string')) {
      problems.push(`${where}: ${kind} needs text${kind === 'message' ? ' or id' : ''}`);
    }
  };
  const uri = (v: unknown, where: string, absolute: boolean) => {
    if (typeof v !== 'string' || v === '' || /[\s"<>\\^`{|}]/.test(v)) return problems.push(`${where}: not a URI reference: ${JSON.stringify(v)}`);
    if (absolute && !/^[a-z][a-z0-9+.-]*:/i.test(v)) problems.push(`${where}: not an absolute URI: ${v}`);
    try {
      new URL(v, 'file:///base/');
    } catch {
      problems.push(`${where}: unparseable URI: ${v}`);
    }
    return 0;
  };
  const int = (v: unknown, min: number) => Number.isInteger(v) && (v as number) >= min;

  if (!object(doc, 'sarifLog', '$', ['version', 'runs'])) return problems;
  if (doc.version !== '2.1.0') problems.push(`$.version: must be "2.1.0"`);
  if (typeof doc.$schema !== 'string') problems.push('$.$schema: missing');
  else uri(doc.$schema, '$.$schema', true);
  if (!Array.isArray(doc.runs)) return [...problems, '$.runs: must be an array'];
  doc.runs.forEach((run: unknown, r: number) => {
    const at = `$.runs[${r}]`;
    if (!object(run, 'run', at, ['tool'])) return;
    let ruleIds: string[] = [];
    if (object(run.tool, 'tool', `${at}.tool`, ['driver']) && object(run.tool.driver, 'toolComponent', `${at}.tool.driver`, ['name'])) {
      const driver = run.tool.driver;
      if (typeof driver.name !== 'string' || !driver.name) problems.push(`${at}.tool.driver.name: must be a non-empty string`);
      if (driver.version !== undefined && typeof driver.version !== 'string') problems.push(`${at}.tool.driver.version: must be a string`);
      if (driver.informationUri !== undefined) uri(driver.informationUri, `${at}.tool.driver.informationUri`, true);
      if (driver.rules !== undefined) {
        if (!Array.isArray(driver.rules)) problems.push(`${at}.tool.driver.rules: must be an array`);
        else {
          driver.rules.forEach((rule: unknown, i: number) => {
            const rw = `${at}.tool.driver.rules[${i}]`;
            if (!object(rule, 'reportingDescriptor', rw, ['id'])) return;
            if (typeof rule.id !== 'string') problems.push(`${rw}.id: must be a string`);
            if (rule.shortDescription !== undefined) message(rule.shortDescription, `${rw}.shortDescription`, 'multiformatMessageString');
            if (rule.defaultConfiguration !== undefined && object(rule.defaultConfiguration, 'reportingConfiguration', `${rw}.defaultConfiguration`)) {
              const level = rule.defaultConfiguration.level;
              if (level !== undefined && !LEVELS.includes(level as string)) problems.push(`${rw}.defaultConfiguration.level: ${String(level)}`);
            }
          });
          ruleIds = driver.rules.map((x: unknown) => (isObj(x) ? String(x.id) : ''));
          if (new Set(ruleIds).size !== ruleIds.length) problems.push(`${at}.tool.driver.rules: duplicate ids`);
        }
      }
    }
    if (run.invocations !== undefined) {
      (run.invocations as unknown[]).forEach((inv, i) => {
        const iw = `${at}.invocations[${i}]`;
        if (!object(inv, 'invocation', iw, ['executionSuccessful'])) return;
        if (typeof inv.executionSuccessful !== 'boolean') problems.push(`${iw}.executionSuccessful: must be boolean`);
        ((inv.toolExecutionNotifications as unknown[]) ?? []).forEach((n, k) => {
          const nw = `${iw}.toolExecutionNotifications[${k}]`;
          if (!object(n, 'notification', nw, ['message'])) return;
          message(n.message, `${nw}.message`);
          if (n.level !== undefined && !LEVELS.includes(n.level as string)) problems.push(`${nw}.level: ${String(n.level)}`);
        });
      });
    }
    if (run.results === undefined) return;
    if (!Array.isArray(run.results)) return problems.push(`${at}.results: must be an array`);
    run.results.forEach((result: unknown, i: number) => {
      const rw = `${at}.results[${i}]`;
      if (!object(result, 'result', rw, ['message'])) return;
      message(result.message, `${rw}.message`);
      if (result.level !== undefined && !LEVELS.includes(result.level as string)) problems.push(`${rw}.level: ${String(result.level)}`);
      if (result.ruleId !== undefined && typeof result.ruleId !== 'string') problems.push(`${rw}.ruleId: must be a string`);
      if (result.ruleIndex !== undefined) {
        if (!int(result.ruleIndex, -1)) problems.push(`${rw}.ruleIndex: must be an integer >= -1`);
        else if (ruleIds[result.ruleIndex as number] !== result.ruleId) problems.push(`${rw}.ruleIndex: rules[${String(result.ruleIndex)}] is not ${String(result.ruleId)}`);
      }
      if (result.partialFingerprints !== undefined) {
        if (!isObj(result.partialFingerprints) || Object.values(result.partialFingerprints).some((v) => typeof v !== 'string')) {
          problems.push(`${rw}.partialFingerprints: must map names to strings`);
        }
      }
      ((result.locations as unknown[]) ?? []).forEach((loc, k) => {
        const lw = `${rw}.locations[${k}]`;
        if (!object(loc, 'location', lw) || loc.physicalLocation === undefined) return;
        const pw = `${lw}.physicalLocation`;
        if (!object(loc.physicalLocation, 'physicalLocation', pw)) return;
        const pl = loc.physicalLocation;
        if (!('artifactLocation' in pl) && !('address' in pl)) problems.push(`${pw}: needs artifactLocation or address`);
        if (pl.artifactLocation !== undefined && object(pl.artifactLocation, 'artifactLocation', `${pw}.artifactLocation`)) {
          uri(pl.artifactLocation.uri, `${pw}.artifactLocation.uri`, false);
        }
        if (pl.region !== undefined && object(pl.region, 'region', `${pw}.region`)) {
          const region = pl.region;
          if (!int(region.startLine, 1)) problems.push(`${pw}.region.startLine: must be an integer >= 1`);
          if (region.endLine !== undefined && (!int(region.endLine, 1) || (region.endLine as number) < (region.startLine as number))) {
            problems.push(`${pw}.region.endLine: must be an integer >= startLine`);
          }
        }
      });
      ((result.suppressions as unknown[]) ?? []).forEach((s, k) => {
        const sw = `${rw}.suppressions[${k}]`;
        if (!object(s, 'suppression', sw, ['kind'])) return;
        if (!['inSource', 'external'].includes(s.kind as string)) problems.push(`${sw}.kind: ${String(s.kind)}`);
        if (s.status !== undefined && !['accepted', 'underReview', 'rejected'].includes(s.status as string)) problems.push(`${sw}.status: ${String(s.status)}`);
      });
    });
    return 0;
  });
  return problems;
}
