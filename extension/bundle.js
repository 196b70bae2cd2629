// svc__bundle's body as CREATE EXTENSION svc installs it (scripts/dump-schema.ts). Generated: do not edit.
"use strict";
var __svc_exports = (() => {
  var __create = Object.create;
  var __defProp = Object.defineProperty;
  var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
  var __getOwnPropNames = Object.getOwnPropertyNames;
  var __getProtoOf = Object.getPrototypeOf;
  var __hasOwnProp = Object.prototype.hasOwnProperty;
  var __defNormalProp = (obj, key, value) => key in obj ? __defProp(obj, key, { enumerable: true, configurable: true, writable: true, value }) : obj[key] = value;
  var __commonJS = (cb, mod) => function __require() {
    try {
      return mod || (0, cb[__getOwnPropNames(cb)[0]])((mod = { exports: {} }).exports, mod), mod.exports;
    } catch (e) {
      throw mod = 0, e;
    }
  };
  var __export = (target, all) => {
    for (var name in all)
      __defProp(target, name, { get: all[name], enumerable: true });
  };
  var __copyProps = (to, from, except, desc) => {
    if (from && typeof from === "object" || typeof from === "function") {
      for (let key of __getOwnPropNames(from))
        if (!__hasOwnProp.call(to, key) && key !== except)
          __defProp(to, key, { get: () => from[key], enumerable: !(desc = __getOwnPropDesc(from, key)) || desc.enumerable });
    }
    return to;
  };
  var __toESM = (mod, isNodeMode, target) => (target = mod != null ? __create(__getProtoOf(mod)) : {}, __copyProps(
    // If the importer is in node compatibility mode or this is not an ESM
    // file that has been converted to a CommonJS file using a Babel-
    // compatible transform (i.e. "__esModule" has not been set), then set
    // "default" to the CommonJS "module.exports" for node compatibility.
    isNodeMode || !mod || !mod.__esModule ? __defProp(target, "default", { value: mod, enumerable: true }) : target,
    mod
  ));
  var __toCommonJS = (mod) => __copyProps(__defProp({}, "__esModule", { value: true }), mod);
  var __publicField = (obj, key, value) => __defNormalProp(obj, typeof key !== "symbol" ? key + "" : key, value);

  // node_modules/ajv/dist/compile/codegen/code.js
  var require_code = __commonJS({
    "node_modules/ajv/dist/compile/codegen/code.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      exports.regexpCode = exports.getEsmExportName = exports.getProperty = exports.safeStringify = exports.stringify = exports.strConcat = exports.addCodeArg = exports.str = exports._ = exports.nil = exports._Code = exports.Name = exports.IDENTIFIER = exports._CodeOrName = void 0;
      var _CodeOrName = class {
      };
      exports._CodeOrName = _CodeOrName;
      exports.IDENTIFIER = /^[a-z$_][a-z$_0-9]*$/i;
      var Name = class extends _CodeOrName {
        constructor(s) {
          super();
          if (!exports.IDENTIFIER.test(s))
            throw new Error("CodeGen: name must be a valid identifier");
          this.str = s;
        }
        toString() {
          return this.str;
        }
        emptyStr() {
          return false;
        }
        get names() {
          return { [this.str]: 1 };
        }
      };
      exports.Name = Name;
      var _Code = class extends _CodeOrName {
        constructor(code) {
          super();
          this._items = typeof code === "string" ? [code] : code;
        }
        toString() {
          return this.str;
        }
        emptyStr() {
          if (this._items.length > 1)
            return false;
          const item = this._items[0];
          return item === "" || item === '""';
        }
        get str() {
          var _a;
          return (_a = this._str) !== null && _a !== void 0 ? _a : this._str = this._items.reduce((s, c) => `${s}${c}`, "");
        }
        get names() {
          var _a;
          return (_a = this._names) !== null && _a !== void 0 ? _a : this._names = this._items.reduce((names, c) => {
            if (c instanceof Name)
              names[c.str] = (names[c.str] || 0) + 1;
            return names;
          }, {});
        }
      };
      exports._Code = _Code;
      exports.nil = new _Code("");
      function _(strs, ...args) {
        const code = [strs[0]];
        let i = 0;
        while (i < args.length) {
          addCodeArg(code, args[i]);
          code.push(strs[++i]);
        }
        return new _Code(code);
      }
      exports._ = _;
      var plus = new _Code("+");
      function str(strs, ...args) {
        const expr = [safeStringify(strs[0])];
        let i = 0;
        while (i < args.length) {
          expr.push(plus);
          addCodeArg(expr, args[i]);
          expr.push(plus, safeStringify(strs[++i]));
        }
        optimize(expr);
        return new _Code(expr);
      }
      exports.str = str;
      function addCodeArg(code, arg) {
        if (arg instanceof _Code)
          code.push(...arg._items);
        else if (arg instanceof Name)
          code.push(arg);
        else
          code.push(interpolate(arg));
      }
      exports.addCodeArg = addCodeArg;
      function optimize(expr) {
        let i = 1;
        while (i < expr.length - 1) {
          if (expr[i] === plus) {
            const res = mergeExprItems(expr[i - 1], expr[i + 1]);
            if (res !== void 0) {
              expr.splice(i - 1, 3, res);
              continue;
            }
            expr[i++] = "+";
          }
          i++;
        }
      }
      function mergeExprItems(a, b) {
        if (b === '""')
          return a;
        if (a === '""')
          return b;
        if (typeof a == "string") {
          if (b instanceof Name || a[a.length - 1] !== '"')
            return;
          if (typeof b != "string")
            return `${a.slice(0, -1)}${b}"`;
          if (b[0] === '"')
            return a.slice(0, -1) + b.slice(1);
          return;
        }
        if (typeof b == "string" && b[0] === '"' && !(a instanceof Name))
          return `"${a}${b.slice(1)}`;
        return;
      }
      function strConcat(c1, c2) {
        return c2.emptyStr() ? c1 : c1.emptyStr() ? c2 : str`${c1}${c2}`;
      }
      exports.strConcat = strConcat;
      function interpolate(x) {
        return typeof x == "number" || typeof x == "boolean" || x === null ? x : safeStringify(Array.isArray(x) ? x.join(",") : x);
      }
      function stringify(x) {
        return new _Code(safeStringify(x));
      }
      exports.stringify = stringify;
      function safeStringify(x) {
        return JSON.stringify(x).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
      }
      exports.safeStringify = safeStringify;
      function getProperty(key) {
        return typeof key == "string" && exports.IDENTIFIER.test(key) ? new _Code(`.${key}`) : _`[${key}]`;
      }
      exports.getProperty = getProperty;
      function getEsmExportName(key) {
        if (typeof key == "string" && exports.IDENTIFIER.test(key)) {
          return new _Code(`${key}`);
        }
        throw new Error(`CodeGen: invalid export name: ${key}, use explicit $id name mapping`);
      }
      exports.getEsmExportName = getEsmExportName;
      function regexpCode(rx) {
        return new _Code(rx.toString());
      }
      exports.regexpCode = regexpCode;
    }
  });

  // node_modules/ajv/dist/compile/codegen/scope.js
  var require_scope = __commonJS({
    "node_modules/ajv/dist/compile/codegen/scope.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      exports.ValueScope = exports.ValueScopeName = exports.Scope = exports.varKinds = exports.UsedValueState = void 0;
      var code_1 = require_code();
      var ValueError = class extends Error {
        constructor(name) {
          super(`CodeGen: "code" for ${name} not defined`);
          this.value = name.value;
        }
      };
      var UsedValueState;
      (function(UsedValueState2) {
        UsedValueState2[UsedValueState2["Started"] = 0] = "Started";
        UsedValueState2[UsedValueState2["Completed"] = 1] = "Completed";
      })(UsedValueState || (exports.UsedValueState = UsedValueState = {}));
      exports.varKinds = {
        const: new code_1.Name("const"),
        let: new code_1.Name("let"),
        var: new code_1.Name("var")
      };
      var Scope = class {
        constructor({ prefixes, parent } = {}) {
          this._names = {};
          this._prefixes = prefixes;
          this._parent = parent;
        }
        toName(nameOrPrefix) {
          return nameOrPrefix instanceof code_1.Name ? nameOrPrefix : this.name(nameOrPrefix);
        }
        name(prefix) {
          return new code_1.Name(this._newName(prefix));
        }
        _newName(prefix) {
          const ng = this._names[prefix] || this._nameGroup(prefix);
          return `${prefix}${ng.index++}`;
        }
        _nameGroup(prefix) {
          var _a, _b;
          if (((_b = (_a = this._parent) === null || _a === void 0 ? void 0 : _a._prefixes) === null || _b === void 0 ? void 0 : _b.has(prefix)) || this._prefixes && !this._prefixes.has(prefix)) {
            throw new Error(`CodeGen: prefix "${prefix}" is not allowed in this scope`);
          }
          return this._names[prefix] = { prefix, index: 0 };
        }
      };
      exports.Scope = Scope;
      var ValueScopeName = class extends code_1.Name {
        constructor(prefix, nameStr) {
          super(nameStr);
          this.prefix = prefix;
        }
        setValue(value, { property, itemIndex }) {
          this.value = value;
          this.scopePath = (0, code_1._)`.${new code_1.Name(property)}[${itemIndex}]`;
        }
      };
      exports.ValueScopeName = ValueScopeName;
      var line = (0, code_1._)`\n`;
      var ValueScope = class extends Scope {
        constructor(opts) {
          super(opts);
          this._values = {};
          this._scope = opts.scope;
          this.opts = { ...opts, _n: opts.lines ? line : code_1.nil };
        }
        get() {
          return this._scope;
        }
        name(prefix) {
          return new ValueScopeName(prefix, this._newName(prefix));
        }
        value(nameOrPrefix, value) {
          var _a;
          if (value.ref === void 0)
            throw new Error("CodeGen: ref must be passed in value");
          const name = this.toName(nameOrPrefix);
          const { prefix } = name;
          const valueKey = (_a = value.key) !== null && _a !== void 0 ? _a : value.ref;
          let vs = this._values[prefix];
          if (vs) {
            const _name = vs.get(valueKey);
            if (_name)
              return _name;
          } else {
            vs = this._values[prefix] = /* @__PURE__ */ new Map();
          }
          vs.set(valueKey, name);
          const s = this._scope[prefix] || (this._scope[prefix] = []);
          const itemIndex = s.length;
          s[itemIndex] = value.ref;
          name.setValue(value, { property: prefix, itemIndex });
          return name;
        }
        getValue(prefix, keyOrRef) {
          const vs = this._values[prefix];
          if (!vs)
            return;
          return vs.get(keyOrRef);
        }
        scopeRefs(scopeName, values = this._values) {
          return this._reduceValues(values, (name) => {
            if (name.scopePath === void 0)
              throw new Error(`CodeGen: name "${name}" has no value`);
            return (0, code_1._)`${scopeName}${name.scopePath}`;
          });
        }
        scopeCode(values = this._values, usedValues, getCode) {
          return this._reduceValues(values, (name) => {
            if (name.value === void 0)
              throw new Error(`CodeGen: name "${name}" has no value`);
            return name.value.code;
          }, usedValues, getCode);
        }
        _reduceValues(values, valueCode, usedValues = {}, getCode) {
          let code = code_1.nil;
          for (const prefix in values) {
            const vs = values[prefix];
            if (!vs)
              continue;
            const nameSet = usedValues[prefix] = usedValues[prefix] || /* @__PURE__ */ new Map();
            vs.forEach((name) => {
              if (nameSet.has(name))
                return;
              nameSet.set(name, UsedValueState.Started);
              let c = valueCode(name);
              if (c) {
                const def = this.opts.es5 ? exports.varKinds.var : exports.varKinds.const;
                code = (0, code_1._)`${code}${def} ${name} = ${c};${this.opts._n}`;
              } else if (c = getCode === null || getCode === void 0 ? void 0 : getCode(name)) {
                code = (0, code_1._)`${code}${c}${this.opts._n}`;
              } else {
                throw new ValueError(name);
              }
              nameSet.set(name, UsedValueState.Completed);
            });
          }
          return code;
        }
      };
      exports.ValueScope = ValueScope;
    }
  });

  // node_modules/ajv/dist/compile/codegen/index.js
  var require_codegen = __commonJS({
    "node_modules/ajv/dist/compile/codegen/index.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      exports.or = exports.and = exports.not = exports.CodeGen = exports.operators = exports.varKinds = exports.ValueScopeName = exports.ValueScope = exports.Scope = exports.Name = exports.regexpCode = exports.stringify = exports.getProperty = exports.nil = exports.strConcat = exports.str = exports._ = void 0;
      var code_1 = require_code();
      var scope_1 = require_scope();
      var code_2 = require_code();
      Object.defineProperty(exports, "_", { enumerable: true, get: function() {
        return code_2._;
      } });
      Object.defineProperty(exports, "str", { enumerable: true, get: function() {
        return code_2.str;
      } });
      Object.defineProperty(exports, "strConcat", { enumerable: true, get: function() {
        return code_2.strConcat;
      } });
      Object.defineProperty(exports, "nil", { enumerable: true, get: function() {
        return code_2.nil;
      } });
      Object.defineProperty(exports, "getProperty", { enumerable: true, get: function() {
        return code_2.getProperty;
      } });
      Object.defineProperty(exports, "stringify", { enumerable: true, get: function() {
        return code_2.stringify;
      } });
      Object.defineProperty(exports, "regexpCode", { enumerable: true, get: function() {
        return code_2.regexpCode;
      } });
      Object.defineProperty(exports, "Name", { enumerable: true, get: function() {
        return code_2.Name;
      } });
      var scope_2 = require_scope();
      Object.defineProperty(exports, "Scope", { enumerable: true, get: function() {
        return scope_2.Scope;
      } });
      Object.defineProperty(exports, "ValueScope", { enumerable: true, get: function() {
        return scope_2.ValueScope;
      } });
      Object.defineProperty(exports, "ValueScopeName", { enumerable: true, get: function() {
        return scope_2.ValueScopeName;
      } });
      Object.defineProperty(exports, "varKinds", { enumerable: true, get: function() {
        return scope_2.varKinds;
      } });
      exports.operators = {
        GT: new code_1._Code(">"),
        GTE: new code_1._Code(">="),
        LT: new code_1._Code("<"),
        LTE: new code_1._Code("<="),
        EQ: new code_1._Code("==="),
        NEQ: new code_1._Code("!=="),
        NOT: new code_1._Code("!"),
        OR: new code_1._Code("||"),
        AND: new code_1._Code("&&"),
        ADD: new code_1._Code("+")
      };
      var Node = class {
        optimizeNodes() {
          return this;
        }
        optimizeNames(_names, _constants) {
          return this;
        }
      };
      var Def = class extends Node {
        constructor(varKind, name, rhs) {
          super();
          this.varKind = varKind;
          this.name = name;
          this.rhs = rhs;
        }
        render({ es5, _n }) {
          const varKind = es5 ? scope_1.varKinds.var : this.varKind;
          const rhs = this.rhs === void 0 ? "" : ` = ${this.rhs}`;
          return `${varKind} ${this.name}${rhs};` + _n;
        }
        optimizeNames(names, constants) {
          if (!names[this.name.str])
            return;
          if (this.rhs)
            this.rhs = optimizeExpr(this.rhs, names, constants);
          return this;
        }
        get names() {
          return this.rhs instanceof code_1._CodeOrName ? this.rhs.names : {};
        }
      };
      var Assign = class extends Node {
        constructor(lhs, rhs, sideEffects) {
          super();
          this.lhs = lhs;
          this.rhs = rhs;
          this.sideEffects = sideEffects;
        }
        render({ _n }) {
          return `${this.lhs} = ${this.rhs};` + _n;
        }
        optimizeNames(names, constants) {
          if (this.lhs instanceof code_1.Name && !names[this.lhs.str] && !this.sideEffects)
            return;
          this.rhs = optimizeExpr(this.rhs, names, constants);
          return this;
        }
        get names() {
          const names = this.lhs instanceof code_1.Name ? {} : { ...this.lhs.names };
          return addExprNames(names, this.rhs);
        }
      };
      var AssignOp = class extends Assign {
        constructor(lhs, op, rhs, sideEffects) {
          super(lhs, rhs, sideEffects);
          this.op = op;
        }
        render({ _n }) {
          return `${this.lhs} ${this.op}= ${this.rhs};` + _n;
        }
      };
      var Label = class extends Node {
        constructor(label) {
          super();
          this.label = label;
          this.names = {};
        }
        render({ _n }) {
          return `${this.label}:` + _n;
        }
      };
      var Break = class extends Node {
        constructor(label) {
          super();
          this.label = label;
          this.names = {};
        }
        render({ _n }) {
          const label = this.label ? ` ${this.label}` : "";
          return `break${label};` + _n;
        }
      };
      var Throw = class extends Node {
        constructor(error) {
          super();
          this.error = error;
        }
        render({ _n }) {
          return `throw ${this.error};` + _n;
        }
        get names() {
          return this.error.names;
        }
      };
      var AnyCode = class extends Node {
        constructor(code) {
          super();
          this.code = code;
        }
        render({ _n }) {
          return `${this.code};` + _n;
        }
        optimizeNodes() {
          return `${this.code}` ? this : void 0;
        }
        optimizeNames(names, constants) {
          this.code = optimizeExpr(this.code, names, constants);
          return this;
        }
        get names() {
          return this.code instanceof code_1._CodeOrName ? this.code.names : {};
        }
      };
      var ParentNode = class extends Node {
        constructor(nodes = []) {
          super();
          this.nodes = nodes;
        }
        render(opts) {
          return this.nodes.reduce((code, n) => code + n.render(opts), "");
        }
        optimizeNodes() {
          const { nodes } = this;
          let i = nodes.length;
          while (i--) {
            const n = nodes[i].optimizeNodes();
            if (Array.isArray(n))
              nodes.splice(i, 1, ...n);
            else if (n)
              nodes[i] = n;
            else
              nodes.splice(i, 1);
          }
          return nodes.length > 0 ? this : void 0;
        }
        optimizeNames(names, constants) {
          const { nodes } = this;
          let i = nodes.length;
          while (i--) {
            const n = nodes[i];
            if (n.optimizeNames(names, constants))
              continue;
            subtractNames(names, n.names);
            nodes.splice(i, 1);
          }
          return nodes.length > 0 ? this : void 0;
        }
        get names() {
          return this.nodes.reduce((names, n) => addNames(names, n.names), {});
        }
      };
      var BlockNode = class extends ParentNode {
        render(opts) {
          return "{" + opts._n + super.render(opts) + "}" + opts._n;
        }
      };
      var Root = class extends ParentNode {
      };
      var Else = class extends BlockNode {
      };
      Else.kind = "else";
      var If = class _If extends BlockNode {
        constructor(condition, nodes) {
          super(nodes);
          this.condition = condition;
        }
        render(opts) {
          let code = `if(${this.condition})` + super.render(opts);
          if (this.else)
            code += "else " + this.else.render(opts);
          return code;
        }
        optimizeNodes() {
          super.optimizeNodes();
          const cond = this.condition;
          if (cond === true)
            return this.nodes;
          let e = this.else;
          if (e) {
            const ns = e.optimizeNodes();
            e = this.else = Array.isArray(ns) ? new Else(ns) : ns;
          }
          if (e) {
            if (cond === false)
              return e instanceof _If ? e : e.nodes;
            if (this.nodes.length)
              return this;
            return new _If(not(cond), e instanceof _If ? [e] : e.nodes);
          }
          if (cond === false || !this.nodes.length)
            return void 0;
          return this;
        }
        optimizeNames(names, constants) {
          var _a;
          this.else = (_a = this.else) === null || _a === void 0 ? void 0 : _a.optimizeNames(names, constants);
          if (!(super.optimizeNames(names, constants) || this.else))
            return;
          this.condition = optimizeExpr(this.condition, names, constants);
          return this;
        }
        get names() {
          const names = super.names;
          addExprNames(names, this.condition);
          if (this.else)
            addNames(names, this.else.names);
          return names;
        }
      };
      If.kind = "if";
      var For = class extends BlockNode {
      };
      For.kind = "for";
      var ForLoop = class extends For {
        constructor(iteration) {
          super();
          this.iteration = iteration;
        }
        render(opts) {
          return `for(${this.iteration})` + super.render(opts);
        }
        optimizeNames(names, constants) {
          if (!super.optimizeNames(names, constants))
            return;
          this.iteration = optimizeExpr(this.iteration, names, constants);
          return this;
        }
        get names() {
          return addNames(super.names, this.iteration.names);
        }
      };
      var ForRange = class extends For {
        constructor(varKind, name, from, to) {
          super();
          this.varKind = varKind;
          this.name = name;
          this.from = from;
          this.to = to;
        }
        render(opts) {
          const varKind = opts.es5 ? scope_1.varKinds.var : this.varKind;
          const { name, from, to } = this;
          return `for(${varKind} ${name}=${from}; ${name}<${to}; ${name}++)` + super.render(opts);
        }
        get names() {
          const names = addExprNames(super.names, this.from);
          return addExprNames(names, this.to);
        }
      };
      var ForIter = class extends For {
        constructor(loop, varKind, name, iterable) {
          super();
          this.loop = loop;
          this.varKind = varKind;
          this.name = name;
          this.iterable = iterable;
        }
        render(opts) {
          return `for(${this.varKind} ${this.name} ${this.loop} ${this.iterable})` + super.render(opts);
        }
        optimizeNames(names, constants) {
          if (!super.optimizeNames(names, constants))
            return;
          this.iterable = optimizeExpr(this.iterable, names, constants);
          return this;
        }
        get names() {
          return addNames(super.names, this.iterable.names);
        }
      };
      var Func = class extends BlockNode {
        constructor(name, args, async) {
          super();
          this.name = name;
          this.args = args;
          this.async = async;
        }
        render(opts) {
          const _async = this.async ? "async " : "";
          return `${_async}function ${this.name}(${this.args})` + super.render(opts);
        }
      };
      Func.kind = "func";
      var Return = class extends ParentNode {
        render(opts) {
          return "return " + super.render(opts);
        }
      };
      Return.kind = "return";
      var Try = class extends BlockNode {
        render(opts) {
          let code = "try" + super.render(opts);
          if (this.catch)
            code += this.catch.render(opts);
          if (this.finally)
            code += this.finally.render(opts);
          return code;
        }
        optimizeNodes() {
          var _a, _b;
          super.optimizeNodes();
          (_a = this.catch) === null || _a === void 0 ? void 0 : _a.optimizeNodes();
          (_b = this.finally) === null || _b === void 0 ? void 0 : _b.optimizeNodes();
          return this;
        }
        optimizeNames(names, constants) {
          var _a, _b;
          super.optimizeNames(names, constants);
          (_a = this.catch) === null || _a === void 0 ? void 0 : _a.optimizeNames(names, constants);
          (_b = this.finally) === null || _b === void 0 ? void 0 : _b.optimizeNames(names, constants);
          return this;
        }
        get names() {
          const names = super.names;
          if (this.catch)
            addNames(names, this.catch.names);
          if (this.finally)
            addNames(names, this.finally.names);
          return names;
        }
      };
      var Catch = class extends BlockNode {
        constructor(error) {
          super();
          this.error = error;
        }
        render(opts) {
          return `catch(${this.error})` + super.render(opts);
        }
      };
      Catch.kind = "catch";
      var Finally = class extends BlockNode {
        render(opts) {
          return "finally" + super.render(opts);
        }
      };
      Finally.kind = "finally";
      var CodeGen = class {
        constructor(extScope, opts = {}) {
          this._values = {};
          this._blockStarts = [];
          this._constants = {};
          this.opts = { ...opts, _n: opts.lines ? "\n" : "" };
          this._extScope = extScope;
          this._scope = new scope_1.Scope({ parent: extScope });
          this._nodes = [new Root()];
        }
        toString() {
          return this._root.render(this.opts);
        }
        // returns unique name in the internal scope
        name(prefix) {
          return this._scope.name(prefix);
        }
        // reserves unique name in the external scope
        scopeName(prefix) {
          return this._extScope.name(prefix);
        }
        // reserves unique name in the external scope and assigns value to it
        scopeValue(prefixOrName, value) {
          const name = this._extScope.value(prefixOrName, value);
          const vs = this._values[name.prefix] || (this._values[name.prefix] = /* @__PURE__ */ new Set());
          vs.add(name);
          return name;
        }
        getScopeValue(prefix, keyOrRef) {
          return this._extScope.getValue(prefix, keyOrRef);
        }
        // return code that assigns values in the external scope to the names that are used internally
        // (same names that were returned by gen.scopeName or gen.scopeValue)
        scopeRefs(scopeName) {
          return this._extScope.scopeRefs(scopeName, this._values);
        }
        scopeCode() {
          return this._extScope.scopeCode(this._values);
        }
        _def(varKind, nameOrPrefix, rhs, constant) {
          const name = this._scope.toName(nameOrPrefix);
          if (rhs !== void 0 && constant)
            this._constants[name.str] = rhs;
          this._leafNode(new Def(varKind, name, rhs));
          return name;
        }
        // `const` declaration (`var` in es5 mode)
        const(nameOrPrefix, rhs, _constant) {
          return this._def(scope_1.varKinds.const, nameOrPrefix, rhs, _constant);
        }
        // `let` declaration with optional assignment (`var` in es5 mode)
        let(nameOrPrefix, rhs, _constant) {
          return this._def(scope_1.varKinds.let, nameOrPrefix, rhs, _constant);
        }
        // `var` declaration with optional assignment
        var(nameOrPrefix, rhs, _constant) {
          return this._def(scope_1.varKinds.var, nameOrPrefix, rhs, _constant);
        }
        // assignment code
        assign(lhs, rhs, sideEffects) {
          return this._leafNode(new Assign(lhs, rhs, sideEffects));
        }
        // `+=` code
        add(lhs, rhs) {
          return this._leafNode(new AssignOp(lhs, exports.operators.ADD, rhs));
        }
        // appends passed SafeExpr to code or executes Block
        code(c) {
          if (typeof c == "function")
            c();
          else if (c !== code_1.nil)
            this._leafNode(new AnyCode(c));
          return this;
        }
        // returns code for object literal for the passed argument list of key-value pairs
        object(...keyValues) {
          const code = ["{"];
          for (const [key, value] of keyValues) {
            if (code.length > 1)
              code.push(",");
            code.push(key);
            if (key !== value || this.opts.es5) {
              code.push(":");
              (0, code_1.addCodeArg)(code, value);
            }
          }
          code.push("}");
          return new code_1._Code(code);
        }
        // `if` clause (or statement if `thenBody` and, optionally, `elseBody` are passed)
        if(condition, thenBody, elseBody) {
          this._blockNode(new If(condition));
          if (thenBody && elseBody) {
            this.code(thenBody).else().code(elseBody).endIf();
          } else if (thenBody) {
            this.code(thenBody).endIf();
          } else if (elseBody) {
            throw new Error('CodeGen: "else" body without "then" body');
          }
          return this;
        }
        // `else if` clause - invalid without `if` or after `else` clauses
        elseIf(condition) {
          return this._elseNode(new If(condition));
        }
        // `else` clause - only valid after `if` or `else if` clauses
        else() {
          return this._elseNode(new Else());
        }
        // end `if` statement (needed if gen.if was used only with condition)
        endIf() {
          return this._endBlockNode(If, Else);
        }
        _for(node, forBody) {
          this._blockNode(node);
          if (forBody)
            this.code(forBody).endFor();
          return this;
        }
        // a generic `for` clause (or statement if `forBody` is passed)
        for(iteration, forBody) {
          return this._for(new ForLoop(iteration), forBody);
        }
        // `for` statement for a range of values
        forRange(nameOrPrefix, from, to, forBody, varKind = this.opts.es5 ? scope_1.varKinds.var : scope_1.varKinds.let) {
          const name = this._scope.toName(nameOrPrefix);
          return this._for(new ForRange(varKind, name, from, to), () => forBody(name));
        }
        // `for-of` statement (in es5 mode replace with a normal for loop)
        forOf(nameOrPrefix, iterable, forBody, varKind = scope_1.varKinds.const) {
          const name = this._scope.toName(nameOrPrefix);
          if (this.opts.es5) {
            const arr = iterable instanceof code_1.Name ? iterable : this.var("_arr", iterable);
            return this.forRange("_i", 0, (0, code_1._)`${arr}.length`, (i) => {
              this.var(name, (0, code_1._)`${arr}[${i}]`);
              forBody(name);
            });
          }
          return this._for(new ForIter("of", varKind, name, iterable), () => forBody(name));
        }
        // `for-in` statement.
        // With option `ownProperties` replaced with a `for-of` loop for object keys
        forIn(nameOrPrefix, obj, forBody, varKind = this.opts.es5 ? scope_1.varKinds.var : scope_1.varKinds.const) {
          if (this.opts.ownProperties) {
            return this.forOf(nameOrPrefix, (0, code_1._)`Object.keys(${obj})`, forBody);
          }
          const name = this._scope.toName(nameOrPrefix);
          return this._for(new ForIter("in", varKind, name, obj), () => forBody(name));
        }
        // end `for` loop
        endFor() {
          return this._endBlockNode(For);
        }
        // `label` statement
        label(label) {
          return this._leafNode(new Label(label));
        }
        // `break` statement
        break(label) {
          return this._leafNode(new Break(label));
        }
        // `return` statement
        return(value) {
          const node = new Return();
          this._blockNode(node);
          this.code(value);
          if (node.nodes.length !== 1)
            throw new Error('CodeGen: "return" should have one node');
          return this._endBlockNode(Return);
        }
        // `try` statement
        try(tryBody, catchCode, finallyCode) {
          if (!catchCode && !finallyCode)
            throw new Error('CodeGen: "try" without "catch" and "finally"');
          const node = new Try();
          this._blockNode(node);
          this.code(tryBody);
          if (catchCode) {
            const error = this.name("e");
            this._currNode = node.catch = new Catch(error);
            catchCode(error);
          }
          if (finallyCode) {
            this._currNode = node.finally = new Finally();
            this.code(finallyCode);
          }
          return this._endBlockNode(Catch, Finally);
        }
        // `throw` statement
        throw(error) {
          return this._leafNode(new Throw(error));
        }
        // start self-balancing block
        block(body, nodeCount) {
          this._blockStarts.push(this._nodes.length);
          if (body)
            this.code(body).endBlock(nodeCount);
          return this;
        }
        // end the current self-balancing block
        endBlock(nodeCount) {
          const len = this._blockStarts.pop();
          if (len === void 0)
            throw new Error("CodeGen: not in self-balancing block");
          const toClose = this._nodes.length - len;
          if (toClose < 0 || nodeCount !== void 0 && toClose !== nodeCount) {
            throw new Error(`CodeGen: wrong number of nodes: ${toClose} vs ${nodeCount} expected`);
          }
          this._nodes.length = len;
          return this;
        }
        // `function` heading (or definition if funcBody is passed)
        func(name, args = code_1.nil, async, funcBody) {
          this._blockNode(new Func(name, args, async));
          if (funcBody)
            this.code(funcBody).endFunc();
          return this;
        }
        // end function definition
        endFunc() {
          return this._endBlockNode(Func);
        }
        optimize(n = 1) {
          while (n-- > 0) {
            this._root.optimizeNodes();
            this._root.optimizeNames(this._root.names, this._constants);
          }
        }
        _leafNode(node) {
          this._currNode.nodes.push(node);
          return this;
        }
        _blockNode(node) {
          this._currNode.nodes.push(node);
          this._nodes.push(node);
        }
        _endBlockNode(N1, N2) {
          const n = this._currNode;
          if (n instanceof N1 || N2 && n instanceof N2) {
            this._nodes.pop();
            return this;
          }
          throw new Error(`CodeGen: not in block "${N2 ? `${N1.kind}/${N2.kind}` : N1.kind}"`);
        }
        _elseNode(node) {
          const n = this._currNode;
          if (!(n instanceof If)) {
            throw new Error('CodeGen: "else" without "if"');
          }
          this._currNode = n.else = node;
          return this;
        }
        get _root() {
          return this._nodes[0];
        }
        get _currNode() {
          const ns = this._nodes;
          return ns[ns.length - 1];
        }
        set _currNode(node) {
          const ns = this._nodes;
          ns[ns.length - 1] = node;
        }
      };
      exports.CodeGen = CodeGen;
      function addNames(names, from) {
        for (const n in from)
          names[n] = (names[n] || 0) + (from[n] || 0);
        return names;
      }
      function addExprNames(names, from) {
        return from instanceof code_1._CodeOrName ? addNames(names, from.names) : names;
      }
      function optimizeExpr(expr, names, constants) {
        if (expr instanceof code_1.Name)
          return replaceName(expr);
        if (!canOptimize(expr))
          return expr;
        return new code_1._Code(expr._items.reduce((items, c) => {
          if (c instanceof code_1.Name)
            c = replaceName(c);
          if (c instanceof code_1._Code)
            items.push(...c._items);
          else
            items.push(c);
          return items;
        }, []));
        function replaceName(n) {
          const c = constants[n.str];
          if (c === void 0 || names[n.str] !== 1)
            return n;
          delete names[n.str];
          return c;
        }
        function canOptimize(e) {
          return e instanceof code_1._Code && e._items.some((c) => c instanceof code_1.Name && names[c.str] === 1 && constants[c.str] !== void 0);
        }
      }
      function subtractNames(names, from) {
        for (const n in from)
          names[n] = (names[n] || 0) - (from[n] || 0);
      }
      function not(x) {
        return typeof x == "boolean" || typeof x == "number" || x === null ? !x : (0, code_1._)`!${par(x)}`;
      }
      exports.not = not;
      var andCode = mappend(exports.operators.AND);
      function and(...args) {
        return args.reduce(andCode);
      }
      exports.and = and;
      var orCode = mappend(exports.operators.OR);
      function or(...args) {
        return args.reduce(orCode);
      }
      exports.or = or;
      function mappend(op) {
        return (x, y) => x === code_1.nil ? y : y === code_1.nil ? x : (0, code_1._)`${par(x)} ${op} ${par(y)}`;
      }
      function par(x) {
        return x instanceof code_1.Name ? x : (0, code_1._)`(${x})`;
      }
    }
  });

  // node_modules/ajv/dist/compile/util.js
  var require_util = __commonJS({
    "node_modules/ajv/dist/compile/util.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      exports.checkStrictMode = exports.getErrorPath = exports.Type = exports.useFunc = exports.setEvaluated = exports.evaluatedPropsToName = exports.mergeEvaluated = exports.eachItem = exports.unescapeJsonPointer = exports.escapeJsonPointer = exports.escapeFragment = exports.unescapeFragment = exports.schemaRefOrVal = exports.schemaHasRulesButRef = exports.schemaHasRules = exports.checkUnknownRules = exports.alwaysValidSchema = exports.toHash = void 0;
      var codegen_1 = require_codegen();
      var code_1 = require_code();
      function toHash(arr) {
        const hash = {};
        for (const item of arr)
          hash[item] = true;
        return hash;
      }
      exports.toHash = toHash;
      function alwaysValidSchema(it, schema) {
        if (typeof schema == "boolean")
          return schema;
        if (Object.keys(schema).length === 0)
          return true;
        checkUnknownRules(it, schema);
        return !schemaHasRules(schema, it.self.RULES.all);
      }
      exports.alwaysValidSchema = alwaysValidSchema;
      function checkUnknownRules(it, schema = it.schema) {
        const { opts, self } = it;
        if (!opts.strictSchema)
          return;
        if (typeof schema === "boolean")
          return;
        const rules = self.RULES.keywords;
        for (const key in schema) {
          if (!rules[key])
            checkStrictMode(it, `unknown keyword: "${key}"`);
        }
      }
      exports.checkUnknownRules = checkUnknownRules;
      function schemaHasRules(schema, rules) {
        if (typeof schema == "boolean")
          return !schema;
        for (const key in schema)
          if (rules[key])
            return true;
        return false;
      }
      exports.schemaHasRules = schemaHasRules;
      function schemaHasRulesButRef(schema, RULES) {
        if (typeof schema == "boolean")
          return !schema;
        for (const key in schema)
          if (key !== "$ref" && RULES.all[key])
            return true;
        return false;
      }
      exports.schemaHasRulesButRef = schemaHasRulesButRef;
      function schemaRefOrVal({ topSchemaRef, schemaPath }, schema, keyword, $data) {
        if (!$data) {
          if (typeof schema == "number" || typeof schema == "boolean")
            return schema;
          if (typeof schema == "string")
            return (0, codegen_1._)`${schema}`;
        }
        return (0, codegen_1._)`${topSchemaRef}${schemaPath}${(0, codegen_1.getProperty)(keyword)}`;
      }
      exports.schemaRefOrVal = schemaRefOrVal;
      function unescapeFragment(str) {
        return unescapeJsonPointer(decodeURIComponent(str));
      }
      exports.unescapeFragment = unescapeFragment;
      function escapeFragment(str) {
        return encodeURIComponent(escapeJsonPointer(str));
      }
      exports.escapeFragment = escapeFragment;
      function escapeJsonPointer(str) {
        if (typeof str == "number")
          return `${str}`;
        return str.replace(/~/g, "~0").replace(/\//g, "~1");
      }
      exports.escapeJsonPointer = escapeJsonPointer;
      function unescapeJsonPointer(str) {
        return str.replace(/~1/g, "/").replace(/~0/g, "~");
      }
      exports.unescapeJsonPointer = unescapeJsonPointer;
      function eachItem(xs, f) {
        if (Array.isArray(xs)) {
          for (const x of xs)
            f(x);
        } else {
          f(xs);
        }
      }
      exports.eachItem = eachItem;
      function makeMergeEvaluated({ mergeNames, mergeToName, mergeValues, resultToName }) {
        return (gen, from, to, toName) => {
          const res = to === void 0 ? from : to instanceof codegen_1.Name ? (from instanceof codegen_1.Name ? mergeNames(gen, from, to) : mergeToName(gen, from, to), to) : from instanceof codegen_1.Name ? (mergeToName(gen, to, from), from) : mergeValues(from, to);
          return toName === codegen_1.Name && !(res instanceof codegen_1.Name) ? resultToName(gen, res) : res;
        };
      }
      exports.mergeEvaluated = {
        props: makeMergeEvaluated({
          mergeNames: (gen, from, to) => gen.if((0, codegen_1._)`${to} !== true && ${from} !== undefined`, () => {
            gen.if((0, codegen_1._)`${from} === true`, () => gen.assign(to, true), () => gen.assign(to, (0, codegen_1._)`${to} || {}`).code((0, codegen_1._)`Object.assign(${to}, ${from})`));
          }),
          mergeToName: (gen, from, to) => gen.if((0, codegen_1._)`${to} !== true`, () => {
            if (from === true) {
              gen.assign(to, true);
            } else {
              gen.assign(to, (0, codegen_1._)`${to} || {}`);
              setEvaluated(gen, to, from);
            }
          }),
          mergeValues: (from, to) => from === true ? true : { ...from, ...to },
          resultToName: evaluatedPropsToName
        }),
        items: makeMergeEvaluated({
          mergeNames: (gen, from, to) => gen.if((0, codegen_1._)`${to} !== true && ${from} !== undefined`, () => gen.assign(to, (0, codegen_1._)`${from} === true ? true : ${to} > ${from} ? ${to} : ${from}`)),
          mergeToName: (gen, from, to) => gen.if((0, codegen_1._)`${to} !== true`, () => gen.assign(to, from === true ? true : (0, codegen_1._)`${to} > ${from} ? ${to} : ${from}`)),
          mergeValues: (from, to) => from === true ? true : Math.max(from, to),
          resultToName: (gen, items) => gen.var("items", items)
        })
      };
      function evaluatedPropsToName(gen, ps) {
        if (ps === true)
          return gen.var("props", true);
        const props = gen.var("props", (0, codegen_1._)`{}`);
        if (ps !== void 0)
          setEvaluated(gen, props, ps);
        return props;
      }
      exports.evaluatedPropsToName = evaluatedPropsToName;
      function setEvaluated(gen, props, ps) {
        Object.keys(ps).forEach((p) => gen.assign((0, codegen_1._)`${props}${(0, codegen_1.getProperty)(p)}`, true));
      }
      exports.setEvaluated = setEvaluated;
      var snippets = {};
      function useFunc(gen, f) {
        return gen.scopeValue("func", {
          ref: f,
          code: snippets[f.code] || (snippets[f.code] = new code_1._Code(f.code))
        });
      }
      exports.useFunc = useFunc;
      var Type;
      (function(Type2) {
        Type2[Type2["Num"] = 0] = "Num";
        Type2[Type2["Str"] = 1] = "Str";
      })(Type || (exports.Type = Type = {}));
      function getErrorPath(dataProp, dataPropType, jsPropertySyntax) {
        if (dataProp instanceof codegen_1.Name) {
          const isNumber = dataPropType === Type.Num;
          return jsPropertySyntax ? isNumber ? (0, codegen_1._)`"[" + ${dataProp} + "]"` : (0, codegen_1._)`"['" + ${dataProp} + "']"` : isNumber ? (0, codegen_1._)`"/" + ${dataProp}` : (0, codegen_1._)`"/" + ${dataProp}.replace(/~/g, "~0").replace(/\\//g, "~1")`;
        }
        return jsPropertySyntax ? (0, codegen_1.getProperty)(dataProp).toString() : "/" + escapeJsonPointer(dataProp);
      }
      exports.getErrorPath = getErrorPath;
      function checkStrictMode(it, msg, mode = it.opts.strictSchema) {
        if (!mode)
          return;
        msg = `strict mode: ${msg}`;
        if (mode === true)
          throw new Error(msg);
        it.self.logger.warn(msg);
      }
      exports.checkStrictMode = checkStrictMode;
    }
  });

  // node_modules/ajv/dist/compile/names.js
  var require_names = __commonJS({
    "node_modules/ajv/dist/compile/names.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var codegen_1 = require_codegen();
      var names = {
        // validation function arguments
        data: new codegen_1.Name("data"),
        // data passed to validation function
        // args passed from referencing schema
        valCxt: new codegen_1.Name("valCxt"),
        // validation/data context - should not be used directly, it is destructured to the names below
        instancePath: new codegen_1.Name("instancePath"),
        parentData: new codegen_1.Name("parentData"),
        parentDataProperty: new codegen_1.Name("parentDataProperty"),
        rootData: new codegen_1.Name("rootData"),
        // root data - same as the data passed to the first/top validation function
        dynamicAnchors: new codegen_1.Name("dynamicAnchors"),
        // used to support recursiveRef and dynamicRef
        // function scoped variables
        vErrors: new codegen_1.Name("vErrors"),
        // null or array of validation errors
        errors: new codegen_1.Name("errors"),
        // counter of validation errors
        this: new codegen_1.Name("this"),
        // "globals"
        self: new codegen_1.Name("self"),
        scope: new codegen_1.Name("scope"),
        // JTD serialize/parse name for JSON string and position
        json: new codegen_1.Name("json"),
        jsonPos: new codegen_1.Name("jsonPos"),
        jsonLen: new codegen_1.Name("jsonLen"),
        jsonPart: new codegen_1.Name("jsonPart")
      };
      exports.default = names;
    }
  });

  // node_modules/ajv/dist/compile/errors.js
  var require_errors = __commonJS({
    "node_modules/ajv/dist/compile/errors.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      exports.extendErrors = exports.resetErrorsCount = exports.reportExtraError = exports.reportError = exports.keyword$DataError = exports.keywordError = void 0;
      var codegen_1 = require_codegen();
      var util_1 = require_util();
      var names_1 = require_names();
      exports.keywordError = {
        message: ({ keyword }) => (0, codegen_1.str)`must pass "${keyword}" keyword validation`
      };
      exports.keyword$DataError = {
        message: ({ keyword, schemaType }) => schemaType ? (0, codegen_1.str)`"${keyword}" keyword must be ${schemaType} ($data)` : (0, codegen_1.str)`"${keyword}" keyword is invalid ($data)`
      };
      function reportError(cxt, error = exports.keywordError, errorPaths, overrideAllErrors) {
        const { it } = cxt;
        const { gen, compositeRule, allErrors } = it;
        const errObj = errorObjectCode(cxt, error, errorPaths);
        if (overrideAllErrors !== null && overrideAllErrors !== void 0 ? overrideAllErrors : compositeRule || allErrors) {
          addError(gen, errObj);
        } else {
          returnErrors(it, (0, codegen_1._)`[${errObj}]`);
        }
      }
      exports.reportError = reportError;
      function reportExtraError(cxt, error = exports.keywordError, errorPaths) {
        const { it } = cxt;
        const { gen, compositeRule, allErrors } = it;
        const errObj = errorObjectCode(cxt, error, errorPaths);
        addError(gen, errObj);
        if (!(compositeRule || allErrors)) {
          returnErrors(it, names_1.default.vErrors);
        }
      }
      exports.reportExtraError = reportExtraError;
      function resetErrorsCount(gen, errsCount) {
        gen.assign(names_1.default.errors, errsCount);
        gen.if((0, codegen_1._)`${names_1.default.vErrors} !== null`, () => gen.if(errsCount, () => gen.assign((0, codegen_1._)`${names_1.default.vErrors}.length`, errsCount), () => gen.assign(names_1.default.vErrors, null)));
      }
      exports.resetErrorsCount = resetErrorsCount;
      function extendErrors({ gen, keyword, schemaValue, data, errsCount, it }) {
        if (errsCount === void 0)
          throw new Error("ajv implementation error");
        const err = gen.name("err");
        gen.forRange("i", errsCount, names_1.default.errors, (i) => {
          gen.const(err, (0, codegen_1._)`${names_1.default.vErrors}[${i}]`);
          gen.if((0, codegen_1._)`${err}.instancePath === undefined`, () => gen.assign((0, codegen_1._)`${err}.instancePath`, (0, codegen_1.strConcat)(names_1.default.instancePath, it.errorPath)));
          gen.assign((0, codegen_1._)`${err}.schemaPath`, (0, codegen_1.str)`${it.errSchemaPath}/${keyword}`);
          if (it.opts.verbose) {
            gen.assign((0, codegen_1._)`${err}.schema`, schemaValue);
            gen.assign((0, codegen_1._)`${err}.data`, data);
          }
        });
      }
      exports.extendErrors = extendErrors;
      function addError(gen, errObj) {
        const err = gen.const("err", errObj);
        gen.if((0, codegen_1._)`${names_1.default.vErrors} === null`, () => gen.assign(names_1.default.vErrors, (0, codegen_1._)`[${err}]`), (0, codegen_1._)`${names_1.default.vErrors}.push(${err})`);
        gen.code((0, codegen_1._)`${names_1.default.errors}++`);
      }
      function returnErrors(it, errs) {
        const { gen, validateName, schemaEnv } = it;
        if (schemaEnv.$async) {
          gen.throw((0, codegen_1._)`new ${it.ValidationError}(${errs})`);
        } else {
          gen.assign((0, codegen_1._)`${validateName}.errors`, errs);
          gen.return(false);
        }
      }
      var E = {
        keyword: new codegen_1.Name("keyword"),
        schemaPath: new codegen_1.Name("schemaPath"),
        // also used in JTD errors
        params: new codegen_1.Name("params"),
        propertyName: new codegen_1.Name("propertyName"),
        message: new codegen_1.Name("message"),
        schema: new codegen_1.Name("schema"),
        parentSchema: new codegen_1.Name("parentSchema")
      };
      function errorObjectCode(cxt, error, errorPaths) {
        const { createErrors } = cxt.it;
        if (createErrors === false)
          return (0, codegen_1._)`{}`;
        return errorObject(cxt, error, errorPaths);
      }
      function errorObject(cxt, error, errorPaths = {}) {
        const { gen, it } = cxt;
        const keyValues = [
          errorInstancePath(it, errorPaths),
          errorSchemaPath(cxt, errorPaths)
        ];
        extraErrorProps(cxt, error, keyValues);
        return gen.object(...keyValues);
      }
      function errorInstancePath({ errorPath }, { instancePath }) {
        const instPath = instancePath ? (0, codegen_1.str)`${errorPath}${(0, util_1.getErrorPath)(instancePath, util_1.Type.Str)}` : errorPath;
        return [names_1.default.instancePath, (0, codegen_1.strConcat)(names_1.default.instancePath, instPath)];
      }
      function errorSchemaPath({ keyword, it: { errSchemaPath } }, { schemaPath, parentSchema }) {
        let schPath = parentSchema ? errSchemaPath : (0, codegen_1.str)`${errSchemaPath}/${keyword}`;
        if (schemaPath) {
          schPath = (0, codegen_1.str)`${schPath}${(0, util_1.getErrorPath)(schemaPath, util_1.Type.Str)}`;
        }
        return [E.schemaPath, schPath];
      }
      function extraErrorProps(cxt, { params, message }, keyValues) {
        const { keyword, data, schemaValue, it } = cxt;
        const { opts, propertyName, topSchemaRef, schemaPath } = it;
        keyValues.push([E.keyword, keyword], [E.params, typeof params == "function" ? params(cxt) : params || (0, codegen_1._)`{}`]);
        if (opts.messages) {
          keyValues.push([E.message, typeof message == "function" ? message(cxt) : message]);
        }
        if (opts.verbose) {
          keyValues.push([E.schema, schemaValue], [E.parentSchema, (0, codegen_1._)`${topSchemaRef}${schemaPath}`], [names_1.default.data, data]);
        }
        if (propertyName)
          keyValues.push([E.propertyName, propertyName]);
      }
    }
  });

  // node_modules/ajv/dist/compile/validate/boolSchema.js
  var require_boolSchema = __commonJS({
    "node_modules/ajv/dist/compile/validate/boolSchema.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      exports.boolOrEmptySchema = exports.topBoolOrEmptySchema = void 0;
      var errors_1 = require_errors();
      var codegen_1 = require_codegen();
      var names_1 = require_names();
      var boolError = {
        message: "boolean schema is false"
      };
      function topBoolOrEmptySchema(it) {
        const { gen, schema, validateName } = it;
        if (schema === false) {
          falseSchemaError(it, false);
        } else if (typeof schema == "object" && schema.$async === true) {
          gen.return(names_1.default.data);
        } else {
          gen.assign((0, codegen_1._)`${validateName}.errors`, null);
          gen.return(true);
        }
      }
      exports.topBoolOrEmptySchema = topBoolOrEmptySchema;
      function boolOrEmptySchema(it, valid) {
        const { gen, schema } = it;
        if (schema === false) {
          gen.var(valid, false);
          falseSchemaError(it);
        } else {
          gen.var(valid, true);
        }
      }
      exports.boolOrEmptySchema = boolOrEmptySchema;
      function falseSchemaError(it, overrideAllErrors) {
        const { gen, data } = it;
        const cxt = {
          gen,
          keyword: "false schema",
          data,
          schema: false,
          schemaCode: false,
          schemaValue: false,
          params: {},
          it
        };
        (0, errors_1.reportError)(cxt, boolError, void 0, overrideAllErrors);
      }
    }
  });

  // node_modules/ajv/dist/compile/rules.js
  var require_rules = __commonJS({
    "node_modules/ajv/dist/compile/rules.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      exports.getRules = exports.isJSONType = void 0;
      var _jsonTypes = ["string", "number", "integer", "boolean", "null", "object", "array"];
      var jsonTypes = new Set(_jsonTypes);
      function isJSONType(x) {
        return typeof x == "string" && jsonTypes.has(x);
      }
      exports.isJSONType = isJSONType;
      function getRules() {
        const groups = {
          number: { type: "number", rules: [] },
          string: { type: "string", rules: [] },
          array: { type: "array", rules: [] },
          object: { type: "object", rules: [] }
        };
        return {
          types: { ...groups, integer: true, boolean: true, null: true },
          rules: [{ rules: [] }, groups.number, groups.string, groups.array, groups.object],
          post: { rules: [] },
          all: {},
          keywords: {}
        };
      }
      exports.getRules = getRules;
    }
  });

  // node_modules/ajv/dist/compile/validate/applicability.js
  var require_applicability = __commonJS({
    "node_modules/ajv/dist/compile/validate/applicability.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      exports.shouldUseRule = exports.shouldUseGroup = exports.schemaHasRulesForType = void 0;
      function schemaHasRulesForType({ schema, self }, type) {
        const group = self.RULES.types[type];
        return group && group !== true && shouldUseGroup(schema, group);
      }
      exports.schemaHasRulesForType = schemaHasRulesForType;
      function shouldUseGroup(schema, group) {
        return group.rules.some((rule) => shouldUseRule(schema, rule));
      }
      exports.shouldUseGroup = shouldUseGroup;
      function shouldUseRule(schema, rule) {
        var _a;
        return schema[rule.keyword] !== void 0 || ((_a = rule.definition.implements) === null || _a === void 0 ? void 0 : _a.some((kwd) => schema[kwd] !== void 0));
      }
      exports.shouldUseRule = shouldUseRule;
    }
  });

  // node_modules/ajv/dist/compile/validate/dataType.js
  var require_dataType = __commonJS({
    "node_modules/ajv/dist/compile/validate/dataType.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      exports.reportTypeError = exports.checkDataTypes = exports.checkDataType = exports.coerceAndCheckDataType = exports.getJSONTypes = exports.getSchemaTypes = exports.DataType = void 0;
      var rules_1 = require_rules();
      var applicability_1 = require_applicability();
      var errors_1 = require_errors();
      var codegen_1 = require_codegen();
      var util_1 = require_util();
      var DataType;
      (function(DataType2) {
        DataType2[DataType2["Correct"] = 0] = "Correct";
        DataType2[DataType2["Wrong"] = 1] = "Wrong";
      })(DataType || (exports.DataType = DataType = {}));
      function getSchemaTypes(schema) {
        const types = getJSONTypes(schema.type);
        const hasNull = types.includes("null");
        if (hasNull) {
          if (schema.nullable === false)
            throw new Error("type: null contradicts nullable: false");
        } else {
          if (!types.length && schema.nullable !== void 0) {
            throw new Error('"nullable" cannot be used without "type"');
          }
          if (schema.nullable === true)
            types.push("null");
        }
        return types;
      }
      exports.getSchemaTypes = getSchemaTypes;
      function getJSONTypes(ts) {
        const types = Array.isArray(ts) ? ts : ts ? [ts] : [];
        if (types.every(rules_1.isJSONType))
          return types;
        throw new Error("type must be JSONType or JSONType[]: " + types.join(","));
      }
      exports.getJSONTypes = getJSONTypes;
      function coerceAndCheckDataType(it, types) {
        const { gen, data, opts } = it;
        const coerceTo = coerceToTypes(types, opts.coerceTypes);
        const checkTypes = types.length > 0 && !(coerceTo.length === 0 && types.length === 1 && (0, applicability_1.schemaHasRulesForType)(it, types[0]));
        if (checkTypes) {
          const wrongType = checkDataTypes(types, data, opts.strictNumbers, DataType.Wrong);
          gen.if(wrongType, () => {
            if (coerceTo.length)
              coerceData(it, types, coerceTo);
            else
              reportTypeError(it);
          });
        }
        return checkTypes;
      }
      exports.coerceAndCheckDataType = coerceAndCheckDataType;
      var COERCIBLE = /* @__PURE__ */ new Set(["string", "number", "integer", "boolean", "null"]);
      function coerceToTypes(types, coerceTypes) {
        return coerceTypes ? types.filter((t) => COERCIBLE.has(t) || coerceTypes === "array" && t === "array") : [];
      }
      function coerceData(it, types, coerceTo) {
        const { gen, data, opts } = it;
        const dataType = gen.let("dataType", (0, codegen_1._)`typeof ${data}`);
        const coerced = gen.let("coerced", (0, codegen_1._)`undefined`);
        if (opts.coerceTypes === "array") {
          gen.if((0, codegen_1._)`${dataType} == 'object' && Array.isArray(${data}) && ${data}.length == 1`, () => gen.assign(data, (0, codegen_1._)`${data}[0]`).assign(dataType, (0, codegen_1._)`typeof ${data}`).if(checkDataTypes(types, data, opts.strictNumbers), () => gen.assign(coerced, data)));
        }
        gen.if((0, codegen_1._)`${coerced} !== undefined`);
        for (const t of coerceTo) {
          if (COERCIBLE.has(t) || t === "array" && opts.coerceTypes === "array") {
            coerceSpecificType(t);
          }
        }
        gen.else();
        reportTypeError(it);
        gen.endIf();
        gen.if((0, codegen_1._)`${coerced} !== undefined`, () => {
          gen.assign(data, coerced);
          assignParentData(it, coerced);
        });
        function coerceSpecificType(t) {
          switch (t) {
            case "string":
              gen.elseIf((0, codegen_1._)`${dataType} == "number" || ${dataType} == "boolean"`).assign(coerced, (0, codegen_1._)`"" + ${data}`).elseIf((0, codegen_1._)`${data} === null`).assign(coerced, (0, codegen_1._)`""`);
              return;
            case "number":
              gen.elseIf((0, codegen_1._)`${dataType} == "boolean" || ${data} === null
              || (${dataType} == "string" && ${data} && ${data} == +${data})`).assign(coerced, (0, codegen_1._)`+${data}`);
              return;
            case "integer":
              gen.elseIf((0, codegen_1._)`${dataType} === "boolean" || ${data} === null
              || (${dataType} === "string" && ${data} && ${data} == +${data} && !(${data} % 1))`).assign(coerced, (0, codegen_1._)`+${data}`);
              return;
            case "boolean":
              gen.elseIf((0, codegen_1._)`${data} === "false" || ${data} === 0 || ${data} === null`).assign(coerced, false).elseIf((0, codegen_1._)`${data} === "true" || ${data} === 1`).assign(coerced, true);
              return;
            case "null":
              gen.elseIf((0, codegen_1._)`${data} === "" || ${data} === 0 || ${data} === false`);
              gen.assign(coerced, null);
              return;
            case "array":
              gen.elseIf((0, codegen_1._)`${dataType} === "string" || ${dataType} === "number"
              || ${dataType} === "boolean" || ${data} === null`).assign(coerced, (0, codegen_1._)`[${data}]`);
          }
        }
      }
      function assignParentData({ gen, parentData, parentDataProperty }, expr) {
        gen.if((0, codegen_1._)`${parentData} !== undefined`, () => gen.assign((0, codegen_1._)`${parentData}[${parentDataProperty}]`, expr));
      }
      function checkDataType(dataType, data, strictNums, correct = DataType.Correct) {
        const EQ = correct === DataType.Correct ? codegen_1.operators.EQ : codegen_1.operators.NEQ;
        let cond;
        switch (dataType) {
          case "null":
            return (0, codegen_1._)`${data} ${EQ} null`;
          case "array":
            cond = (0, codegen_1._)`Array.isArray(${data})`;
            break;
          case "object":
            cond = (0, codegen_1._)`${data} && typeof ${data} == "object" && !Array.isArray(${data})`;
            break;
          case "integer":
            cond = numCond((0, codegen_1._)`!(${data} % 1) && !isNaN(${data})`);
            break;
          case "number":
            cond = numCond();
            break;
          default:
            return (0, codegen_1._)`typeof ${data} ${EQ} ${dataType}`;
        }
        return correct === DataType.Correct ? cond : (0, codegen_1.not)(cond);
        function numCond(_cond = codegen_1.nil) {
          return (0, codegen_1.and)((0, codegen_1._)`typeof ${data} == "number"`, _cond, strictNums ? (0, codegen_1._)`isFinite(${data})` : codegen_1.nil);
        }
      }
      exports.checkDataType = checkDataType;
      function checkDataTypes(dataTypes, data, strictNums, correct) {
        if (dataTypes.length === 1) {
          return checkDataType(dataTypes[0], data, strictNums, correct);
        }
        let cond;
        const types = (0, util_1.toHash)(dataTypes);
        if (types.array && types.object) {
          const notObj = (0, codegen_1._)`typeof ${data} != "object"`;
          cond = types.null ? notObj : (0, codegen_1._)`!${data} || ${notObj}`;
          delete types.null;
          delete types.array;
          delete types.object;
        } else {
          cond = codegen_1.nil;
        }
        if (types.number)
          delete types.integer;
        for (const t in types)
          cond = (0, codegen_1.and)(cond, checkDataType(t, data, strictNums, correct));
        return cond;
      }
      exports.checkDataTypes = checkDataTypes;
      var typeError = {
        message: ({ schema }) => `must be ${schema}`,
        params: ({ schema, schemaValue }) => typeof schema == "string" ? (0, codegen_1._)`{type: ${schema}}` : (0, codegen_1._)`{type: ${schemaValue}}`
      };
      function reportTypeError(it) {
        const cxt = getTypeErrorContext(it);
        (0, errors_1.reportError)(cxt, typeError);
      }
      exports.reportTypeError = reportTypeError;
      function getTypeErrorContext(it) {
        const { gen, data, schema } = it;
        const schemaCode = (0, util_1.schemaRefOrVal)(it, schema, "type");
        return {
          gen,
          keyword: "type",
          data,
          schema: schema.type,
          schemaCode,
          schemaValue: schemaCode,
          parentSchema: schema,
          params: {},
          it
        };
      }
    }
  });

  // node_modules/ajv/dist/compile/validate/defaults.js
  var require_defaults = __commonJS({
    "node_modules/ajv/dist/compile/validate/defaults.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      exports.assignDefaults = void 0;
      var codegen_1 = require_codegen();
      var util_1 = require_util();
      function assignDefaults(it, ty) {
        const { properties, items } = it.schema;
        if (ty === "object" && properties) {
          for (const key in properties) {
            assignDefault(it, key, properties[key].default);
          }
        } else if (ty === "array" && Array.isArray(items)) {
          items.forEach((sch, i) => assignDefault(it, i, sch.default));
        }
      }
      exports.assignDefaults = assignDefaults;
      function assignDefault(it, prop, defaultValue) {
        const { gen, compositeRule, data, opts } = it;
        if (defaultValue === void 0)
          return;
        const childData = (0, codegen_1._)`${data}${(0, codegen_1.getProperty)(prop)}`;
        if (compositeRule) {
          (0, util_1.checkStrictMode)(it, `default is ignored for: ${childData}`);
          return;
        }
        let condition = (0, codegen_1._)`${childData} === undefined`;
        if (opts.useDefaults === "empty") {
          condition = (0, codegen_1._)`${condition} || ${childData} === null || ${childData} === ""`;
        }
        gen.if(condition, (0, codegen_1._)`${childData} = ${(0, codegen_1.stringify)(defaultValue)}`);
      }
    }
  });

  // node_modules/ajv/dist/vocabularies/code.js
  var require_code2 = __commonJS({
    "node_modules/ajv/dist/vocabularies/code.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      exports.validateUnion = exports.validateArray = exports.usePattern = exports.callValidateCode = exports.schemaProperties = exports.allSchemaProperties = exports.noPropertyInData = exports.propertyInData = exports.isOwnProperty = exports.hasPropFunc = exports.reportMissingProp = exports.checkMissingProp = exports.checkReportMissingProp = void 0;
      var codegen_1 = require_codegen();
      var util_1 = require_util();
      var names_1 = require_names();
      var util_2 = require_util();
      function checkReportMissingProp(cxt, prop) {
        const { gen, data, it } = cxt;
        gen.if(noPropertyInData(gen, data, prop, it.opts.ownProperties), () => {
          cxt.setParams({ missingProperty: (0, codegen_1._)`${prop}` }, true);
          cxt.error();
        });
      }
      exports.checkReportMissingProp = checkReportMissingProp;
      function checkMissingProp({ gen, data, it: { opts } }, properties, missing2) {
        return (0, codegen_1.or)(...properties.map((prop) => (0, codegen_1.and)(noPropertyInData(gen, data, prop, opts.ownProperties), (0, codegen_1._)`${missing2} = ${prop}`)));
      }
      exports.checkMissingProp = checkMissingProp;
      function reportMissingProp(cxt, missing2) {
        cxt.setParams({ missingProperty: missing2 }, true);
        cxt.error();
      }
      exports.reportMissingProp = reportMissingProp;
      function hasPropFunc(gen) {
        return gen.scopeValue("func", {
          // eslint-disable-next-line @typescript-eslint/unbound-method
          ref: Object.prototype.hasOwnProperty,
          code: (0, codegen_1._)`Object.prototype.hasOwnProperty`
        });
      }
      exports.hasPropFunc = hasPropFunc;
      function isOwnProperty(gen, data, property) {
        return (0, codegen_1._)`${hasPropFunc(gen)}.call(${data}, ${property})`;
      }
      exports.isOwnProperty = isOwnProperty;
      function propertyInData(gen, data, property, ownProperties) {
        const cond = (0, codegen_1._)`${data}${(0, codegen_1.getProperty)(property)} !== undefined`;
        return ownProperties ? (0, codegen_1._)`${cond} && ${isOwnProperty(gen, data, property)}` : cond;
      }
      exports.propertyInData = propertyInData;
      function noPropertyInData(gen, data, property, ownProperties) {
        const cond = (0, codegen_1._)`${data}${(0, codegen_1.getProperty)(property)} === undefined`;
        return ownProperties ? (0, codegen_1.or)(cond, (0, codegen_1.not)(isOwnProperty(gen, data, property))) : cond;
      }
      exports.noPropertyInData = noPropertyInData;
      function allSchemaProperties(schemaMap) {
        return schemaMap ? Object.keys(schemaMap).filter((p) => p !== "__proto__") : [];
      }
      exports.allSchemaProperties = allSchemaProperties;
      function schemaProperties(it, schemaMap) {
        return allSchemaProperties(schemaMap).filter((p) => !(0, util_1.alwaysValidSchema)(it, schemaMap[p]));
      }
      exports.schemaProperties = schemaProperties;
      function callValidateCode({ schemaCode, data, it: { gen, topSchemaRef, schemaPath, errorPath }, it }, func, context, passSchema) {
        const dataAndSchema = passSchema ? (0, codegen_1._)`${schemaCode}, ${data}, ${topSchemaRef}${schemaPath}` : data;
        const valCxt = [
          [names_1.default.instancePath, (0, codegen_1.strConcat)(names_1.default.instancePath, errorPath)],
          [names_1.default.parentData, it.parentData],
          [names_1.default.parentDataProperty, it.parentDataProperty],
          [names_1.default.rootData, names_1.default.rootData]
        ];
        if (it.opts.dynamicRef)
          valCxt.push([names_1.default.dynamicAnchors, names_1.default.dynamicAnchors]);
        const args = (0, codegen_1._)`${dataAndSchema}, ${gen.object(...valCxt)}`;
        return context !== codegen_1.nil ? (0, codegen_1._)`${func}.call(${context}, ${args})` : (0, codegen_1._)`${func}(${args})`;
      }
      exports.callValidateCode = callValidateCode;
      var newRegExp = (0, codegen_1._)`new RegExp`;
      function usePattern({ gen, it: { opts } }, pattern) {
        const u = opts.unicodeRegExp ? "u" : "";
        const { regExp } = opts.code;
        const rx = regExp(pattern, u);
        return gen.scopeValue("pattern", {
          key: rx.toString(),
          ref: rx,
          code: (0, codegen_1._)`${regExp.code === "new RegExp" ? newRegExp : (0, util_2.useFunc)(gen, regExp)}(${pattern}, ${u})`
        });
      }
      exports.usePattern = usePattern;
      function validateArray(cxt) {
        const { gen, data, keyword, it } = cxt;
        const valid = gen.name("valid");
        if (it.allErrors) {
          const validArr = gen.let("valid", true);
          validateItems(() => gen.assign(validArr, false));
          return validArr;
        }
        gen.var(valid, true);
        validateItems(() => gen.break());
        return valid;
        function validateItems(notValid) {
          const len = gen.const("len", (0, codegen_1._)`${data}.length`);
          gen.forRange("i", 0, len, (i) => {
            cxt.subschema({
              keyword,
              dataProp: i,
              dataPropType: util_1.Type.Num
            }, valid);
            gen.if((0, codegen_1.not)(valid), notValid);
          });
        }
      }
      exports.validateArray = validateArray;
      function validateUnion(cxt) {
        const { gen, schema, keyword, it } = cxt;
        if (!Array.isArray(schema))
          throw new Error("ajv implementation error");
        const alwaysValid = schema.some((sch) => (0, util_1.alwaysValidSchema)(it, sch));
        if (alwaysValid && !it.opts.unevaluated)
          return;
        const valid = gen.let("valid", false);
        const schValid = gen.name("_valid");
        gen.block(() => schema.forEach((_sch, i) => {
          const schCxt = cxt.subschema({
            keyword,
            schemaProp: i,
            compositeRule: true
          }, schValid);
          gen.assign(valid, (0, codegen_1._)`${valid} || ${schValid}`);
          const merged2 = cxt.mergeValidEvaluated(schCxt, schValid);
          if (!merged2)
            gen.if((0, codegen_1.not)(valid));
        }));
        cxt.result(valid, () => cxt.reset(), () => cxt.error(true));
      }
      exports.validateUnion = validateUnion;
    }
  });

  // node_modules/ajv/dist/compile/validate/keyword.js
  var require_keyword = __commonJS({
    "node_modules/ajv/dist/compile/validate/keyword.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      exports.validateKeywordUsage = exports.validSchemaType = exports.funcKeywordCode = exports.macroKeywordCode = void 0;
      var codegen_1 = require_codegen();
      var names_1 = require_names();
      var code_1 = require_code2();
      var errors_1 = require_errors();
      function macroKeywordCode(cxt, def) {
        const { gen, keyword, schema, parentSchema, it } = cxt;
        const macroSchema = def.macro.call(it.self, schema, parentSchema, it);
        const schemaRef = useKeyword(gen, keyword, macroSchema);
        if (it.opts.validateSchema !== false)
          it.self.validateSchema(macroSchema, true);
        const valid = gen.name("valid");
        cxt.subschema({
          schema: macroSchema,
          schemaPath: codegen_1.nil,
          errSchemaPath: `${it.errSchemaPath}/${keyword}`,
          topSchemaRef: schemaRef,
          compositeRule: true
        }, valid);
        cxt.pass(valid, () => cxt.error(true));
      }
      exports.macroKeywordCode = macroKeywordCode;
      function funcKeywordCode(cxt, def) {
        var _a;
        const { gen, keyword, schema, parentSchema, $data, it } = cxt;
        checkAsyncKeyword(it, def);
        const validate = !$data && def.compile ? def.compile.call(it.self, schema, parentSchema, it) : def.validate;
        const validateRef = useKeyword(gen, keyword, validate);
        const valid = gen.let("valid");
        cxt.block$data(valid, validateKeyword);
        cxt.ok((_a = def.valid) !== null && _a !== void 0 ? _a : valid);
        function validateKeyword() {
          if (def.errors === false) {
            assignValid();
            if (def.modifying)
              modifyData(cxt);
            reportErrs(() => cxt.error());
          } else {
            const ruleErrs = def.async ? validateAsync() : validateSync();
            if (def.modifying)
              modifyData(cxt);
            reportErrs(() => addErrs(cxt, ruleErrs));
          }
        }
        function validateAsync() {
          const ruleErrs = gen.let("ruleErrs", null);
          gen.try(() => assignValid((0, codegen_1._)`await `), (e) => gen.assign(valid, false).if((0, codegen_1._)`${e} instanceof ${it.ValidationError}`, () => gen.assign(ruleErrs, (0, codegen_1._)`${e}.errors`), () => gen.throw(e)));
          return ruleErrs;
        }
        function validateSync() {
          const validateErrs = (0, codegen_1._)`${validateRef}.errors`;
          gen.assign(validateErrs, null);
          assignValid(codegen_1.nil);
          return validateErrs;
        }
        function assignValid(_await = def.async ? (0, codegen_1._)`await ` : codegen_1.nil) {
          const passCxt = it.opts.passContext ? names_1.default.this : names_1.default.self;
          const passSchema = !("compile" in def && !$data || def.schema === false);
          gen.assign(valid, (0, codegen_1._)`${_await}${(0, code_1.callValidateCode)(cxt, validateRef, passCxt, passSchema)}`, def.modifying);
        }
        function reportErrs(errors) {
          var _a2;
          gen.if((0, codegen_1.not)((_a2 = def.valid) !== null && _a2 !== void 0 ? _a2 : valid), errors);
        }
      }
      exports.funcKeywordCode = funcKeywordCode;
      function modifyData(cxt) {
        const { gen, data, it } = cxt;
        gen.if(it.parentData, () => gen.assign(data, (0, codegen_1._)`${it.parentData}[${it.parentDataProperty}]`));
      }
      function addErrs(cxt, errs) {
        const { gen } = cxt;
        gen.if((0, codegen_1._)`Array.isArray(${errs})`, () => {
          gen.assign(names_1.default.vErrors, (0, codegen_1._)`${names_1.default.vErrors} === null ? ${errs} : ${names_1.default.vErrors}.concat(${errs})`).assign(names_1.default.errors, (0, codegen_1._)`${names_1.default.vErrors}.length`);
          (0, errors_1.extendErrors)(cxt);
        }, () => cxt.error());
      }
      function checkAsyncKeyword({ schemaEnv }, def) {
        if (def.async && !schemaEnv.$async)
          throw new Error("async keyword in sync schema");
      }
      function useKeyword(gen, keyword, result) {
        if (result === void 0)
          throw new Error(`keyword "${keyword}" failed to compile`);
        return gen.scopeValue("keyword", typeof result == "function" ? { ref: result } : { ref: result, code: (0, codegen_1.stringify)(result) });
      }
      function validSchemaType(schema, schemaType, allowUndefined = false) {
        return !schemaType.length || schemaType.some((st) => st === "array" ? Array.isArray(schema) : st === "object" ? schema && typeof schema == "object" && !Array.isArray(schema) : typeof schema == st || allowUndefined && typeof schema == "undefined");
      }
      exports.validSchemaType = validSchemaType;
      function validateKeywordUsage({ schema, opts, self, errSchemaPath }, def, keyword) {
        if (Array.isArray(def.keyword) ? !def.keyword.includes(keyword) : def.keyword !== keyword) {
          throw new Error("ajv implementation error");
        }
        const deps = def.dependencies;
        if (deps === null || deps === void 0 ? void 0 : deps.some((kwd) => !Object.prototype.hasOwnProperty.call(schema, kwd))) {
          throw new Error(`parent schema must have dependencies of ${keyword}: ${deps.join(",")}`);
        }
        if (def.validateSchema) {
          const valid = def.validateSchema(schema[keyword]);
          if (!valid) {
            const msg = `keyword "${keyword}" value is invalid at path "${errSchemaPath}": ` + self.errorsText(def.validateSchema.errors);
            if (opts.validateSchema === "log")
              self.logger.error(msg);
            else
              throw new Error(msg);
          }
        }
      }
      exports.validateKeywordUsage = validateKeywordUsage;
    }
  });

  // node_modules/ajv/dist/compile/validate/subschema.js
  var require_subschema = __commonJS({
    "node_modules/ajv/dist/compile/validate/subschema.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      exports.extendSubschemaMode = exports.extendSubschemaData = exports.getSubschema = void 0;
      var codegen_1 = require_codegen();
      var util_1 = require_util();
      function getSubschema(it, { keyword, schemaProp, schema, schemaPath, errSchemaPath, topSchemaRef }) {
        if (keyword !== void 0 && schema !== void 0) {
          throw new Error('both "keyword" and "schema" passed, only one allowed');
        }
        if (keyword !== void 0) {
          const sch = it.schema[keyword];
          return schemaProp === void 0 ? {
            schema: sch,
            schemaPath: (0, codegen_1._)`${it.schemaPath}${(0, codegen_1.getProperty)(keyword)}`,
            errSchemaPath: `${it.errSchemaPath}/${keyword}`
          } : {
            schema: sch[schemaProp],
            schemaPath: (0, codegen_1._)`${it.schemaPath}${(0, codegen_1.getProperty)(keyword)}${(0, codegen_1.getProperty)(schemaProp)}`,
            errSchemaPath: `${it.errSchemaPath}/${keyword}/${(0, util_1.escapeFragment)(schemaProp)}`
          };
        }
        if (schema !== void 0) {
          if (schemaPath === void 0 || errSchemaPath === void 0 || topSchemaRef === void 0) {
            throw new Error('"schemaPath", "errSchemaPath" and "topSchemaRef" are required with "schema"');
          }
          return {
            schema,
            schemaPath,
            topSchemaRef,
            errSchemaPath
          };
        }
        throw new Error('either "keyword" or "schema" must be passed');
      }
      exports.getSubschema = getSubschema;
      function extendSubschemaData(subschema, it, { dataProp, dataPropType: dpType, data, dataTypes, propertyName }) {
        if (data !== void 0 && dataProp !== void 0) {
          throw new Error('both "data" and "dataProp" passed, only one allowed');
        }
        const { gen } = it;
        if (dataProp !== void 0) {
          const { errorPath, dataPathArr, opts } = it;
          const nextData = gen.let("data", (0, codegen_1._)`${it.data}${(0, codegen_1.getProperty)(dataProp)}`, true);
          dataContextProps(nextData);
          subschema.errorPath = (0, codegen_1.str)`${errorPath}${(0, util_1.getErrorPath)(dataProp, dpType, opts.jsPropertySyntax)}`;
          subschema.parentDataProperty = (0, codegen_1._)`${dataProp}`;
          subschema.dataPathArr = [...dataPathArr, subschema.parentDataProperty];
        }
        if (data !== void 0) {
          const nextData = data instanceof codegen_1.Name ? data : gen.let("data", data, true);
          dataContextProps(nextData);
          if (propertyName !== void 0)
            subschema.propertyName = propertyName;
        }
        if (dataTypes)
          subschema.dataTypes = dataTypes;
        function dataContextProps(_nextData) {
          subschema.data = _nextData;
          subschema.dataLevel = it.dataLevel + 1;
          subschema.dataTypes = [];
          it.definedProperties = /* @__PURE__ */ new Set();
          subschema.parentData = it.data;
          subschema.dataNames = [...it.dataNames, _nextData];
        }
      }
      exports.extendSubschemaData = extendSubschemaData;
      function extendSubschemaMode(subschema, { jtdDiscriminator, jtdMetadata, compositeRule, createErrors, allErrors }) {
        if (compositeRule !== void 0)
          subschema.compositeRule = compositeRule;
        if (createErrors !== void 0)
          subschema.createErrors = createErrors;
        if (allErrors !== void 0)
          subschema.allErrors = allErrors;
        subschema.jtdDiscriminator = jtdDiscriminator;
        subschema.jtdMetadata = jtdMetadata;
      }
      exports.extendSubschemaMode = extendSubschemaMode;
    }
  });

  // node_modules/fast-deep-equal/index.js
  var require_fast_deep_equal = __commonJS({
    "node_modules/fast-deep-equal/index.js"(exports, module) {
      "use strict";
      module.exports = function equal(a, b) {
        if (a === b) return true;
        if (a && b && typeof a == "object" && typeof b == "object") {
          if (a.constructor !== b.constructor) return false;
          var length, i, keys2;
          if (Array.isArray(a)) {
            length = a.length;
            if (length != b.length) return false;
            for (i = length; i-- !== 0; )
              if (!equal(a[i], b[i])) return false;
            return true;
          }
          if (a.constructor === RegExp) return a.source === b.source && a.flags === b.flags;
          if (a.valueOf !== Object.prototype.valueOf) return a.valueOf() === b.valueOf();
          if (a.toString !== Object.prototype.toString) return a.toString() === b.toString();
          keys2 = Object.keys(a);
          length = keys2.length;
          if (length !== Object.keys(b).length) return false;
          for (i = length; i-- !== 0; )
            if (!Object.prototype.hasOwnProperty.call(b, keys2[i])) return false;
          for (i = length; i-- !== 0; ) {
            var key = keys2[i];
            if (!equal(a[key], b[key])) return false;
          }
          return true;
        }
        return a !== a && b !== b;
      };
    }
  });

  // node_modules/json-schema-traverse/index.js
  var require_json_schema_traverse = __commonJS({
    "node_modules/json-schema-traverse/index.js"(exports, module) {
      "use strict";
      var traverse = module.exports = function(schema, opts, cb) {
        if (typeof opts == "function") {
          cb = opts;
          opts = {};
        }
        cb = opts.cb || cb;
        var pre = typeof cb == "function" ? cb : cb.pre || function() {
        };
        var post = cb.post || function() {
        };
        _traverse(opts, pre, post, schema, "", schema);
      };
      traverse.keywords = {
        additionalItems: true,
        items: true,
        contains: true,
        additionalProperties: true,
        propertyNames: true,
        not: true,
        if: true,
        then: true,
        else: true
      };
      traverse.arrayKeywords = {
        items: true,
        allOf: true,
        anyOf: true,
        oneOf: true
      };
      traverse.propsKeywords = {
        $defs: true,
        definitions: true,
        properties: true,
        patternProperties: true,
        dependencies: true
      };
      traverse.skipKeywords = {
        default: true,
        enum: true,
        const: true,
        required: true,
        maximum: true,
        minimum: true,
        exclusiveMaximum: true,
        exclusiveMinimum: true,
        multipleOf: true,
        maxLength: true,
        minLength: true,
        pattern: true,
        format: true,
        maxItems: true,
        minItems: true,
        uniqueItems: true,
        maxProperties: true,
        minProperties: true
      };
      function _traverse(opts, pre, post, schema, jsonPtr, rootSchema, parentJsonPtr, parentKeyword, parentSchema, keyIndex) {
        if (schema && typeof schema == "object" && !Array.isArray(schema)) {
          pre(schema, jsonPtr, rootSchema, parentJsonPtr, parentKeyword, parentSchema, keyIndex);
          for (var key in schema) {
            var sch = schema[key];
            if (Array.isArray(sch)) {
              if (key in traverse.arrayKeywords) {
                for (var i = 0; i < sch.length; i++)
                  _traverse(opts, pre, post, sch[i], jsonPtr + "/" + key + "/" + i, rootSchema, jsonPtr, key, schema, i);
              }
            } else if (key in traverse.propsKeywords) {
              if (sch && typeof sch == "object") {
                for (var prop in sch)
                  _traverse(opts, pre, post, sch[prop], jsonPtr + "/" + key + "/" + escapeJsonPtr(prop), rootSchema, jsonPtr, key, schema, prop);
              }
            } else if (key in traverse.keywords || opts.allKeys && !(key in traverse.skipKeywords)) {
              _traverse(opts, pre, post, sch, jsonPtr + "/" + key, rootSchema, jsonPtr, key, schema);
            }
          }
          post(schema, jsonPtr, rootSchema, parentJsonPtr, parentKeyword, parentSchema, keyIndex);
        }
      }
      function escapeJsonPtr(str) {
        return str.replace(/~/g, "~0").replace(/\//g, "~1");
      }
    }
  });

  // node_modules/ajv/dist/compile/resolve.js
  var require_resolve = __commonJS({
    "node_modules/ajv/dist/compile/resolve.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      exports.getSchemaRefs = exports.resolveUrl = exports.normalizeId = exports._getFullPath = exports.getFullPath = exports.inlineRef = void 0;
      var util_1 = require_util();
      var equal = require_fast_deep_equal();
      var traverse = require_json_schema_traverse();
      var SIMPLE_INLINED = /* @__PURE__ */ new Set([
        "type",
        "format",
        "pattern",
        "maxLength",
        "minLength",
        "maxProperties",
        "minProperties",
        "maxItems",
        "minItems",
        "maximum",
        "minimum",
        "uniqueItems",
        "multipleOf",
        "required",
        "enum",
        "const"
      ]);
      function inlineRef(schema, limit = true) {
        if (typeof schema == "boolean")
          return true;
        if (limit === true)
          return !hasRef(schema);
        if (!limit)
          return false;
        return countKeys(schema) <= limit;
      }
      exports.inlineRef = inlineRef;
      var REF_KEYWORDS = /* @__PURE__ */ new Set([
        "$ref",
        "$recursiveRef",
        "$recursiveAnchor",
        "$dynamicRef",
        "$dynamicAnchor"
      ]);
      function hasRef(schema) {
        for (const key in schema) {
          if (REF_KEYWORDS.has(key))
            return true;
          const sch = schema[key];
          if (Array.isArray(sch) && sch.some(hasRef))
            return true;
          if (typeof sch == "object" && hasRef(sch))
            return true;
        }
        return false;
      }
      function countKeys(schema) {
        let count = 0;
        for (const key in schema) {
          if (key === "$ref")
            return Infinity;
          count++;
          if (SIMPLE_INLINED.has(key))
            continue;
          if (typeof schema[key] == "object") {
            (0, util_1.eachItem)(schema[key], (sch) => count += countKeys(sch));
          }
          if (count === Infinity)
            return Infinity;
        }
        return count;
      }
      function getFullPath(resolver, id = "", normalize) {
        if (normalize !== false)
          id = normalizeId(id);
        const p = resolver.parse(id);
        return _getFullPath(resolver, p);
      }
      exports.getFullPath = getFullPath;
      function _getFullPath(resolver, p) {
        const serialized = resolver.serialize(p);
        return serialized.split("#")[0] + "#";
      }
      exports._getFullPath = _getFullPath;
      var TRAILING_SLASH_HASH = /#\/?$/;
      function normalizeId(id) {
        return id ? id.replace(TRAILING_SLASH_HASH, "") : "";
      }
      exports.normalizeId = normalizeId;
      function resolveUrl(resolver, baseId, id) {
        id = normalizeId(id);
        return resolver.resolve(baseId, id);
      }
      exports.resolveUrl = resolveUrl;
      var ANCHOR = /^[a-z_][-a-z0-9._]*$/i;
      function getSchemaRefs(schema, baseId) {
        if (typeof schema == "boolean")
          return {};
        const { schemaId, uriResolver } = this.opts;
        const schId = normalizeId(schema[schemaId] || baseId);
        const baseIds = { "": schId };
        const pathPrefix = getFullPath(uriResolver, schId, false);
        const localRefs = {};
        const schemaRefs = /* @__PURE__ */ new Set();
        traverse(schema, { allKeys: true }, (sch, jsonPtr, _, parentJsonPtr) => {
          if (parentJsonPtr === void 0)
            return;
          const fullPath = pathPrefix + jsonPtr;
          let innerBaseId = baseIds[parentJsonPtr];
          if (typeof sch[schemaId] == "string")
            innerBaseId = addRef.call(this, sch[schemaId]);
          addAnchor.call(this, sch.$anchor);
          addAnchor.call(this, sch.$dynamicAnchor);
          baseIds[jsonPtr] = innerBaseId;
          function addRef(ref2) {
            const _resolve = this.opts.uriResolver.resolve;
            ref2 = normalizeId(innerBaseId ? _resolve(innerBaseId, ref2) : ref2);
            if (schemaRefs.has(ref2))
              throw ambiguos(ref2);
            schemaRefs.add(ref2);
            let schOrRef = this.refs[ref2];
            if (typeof schOrRef == "string")
              schOrRef = this.refs[schOrRef];
            if (typeof schOrRef == "object") {
              checkAmbiguosRef(sch, schOrRef.schema, ref2);
            } else if (ref2 !== normalizeId(fullPath)) {
              if (ref2[0] === "#") {
                checkAmbiguosRef(sch, localRefs[ref2], ref2);
                localRefs[ref2] = sch;
              } else {
                this.refs[ref2] = fullPath;
              }
            }
            return ref2;
          }
          function addAnchor(anchor) {
            if (typeof anchor == "string") {
              if (!ANCHOR.test(anchor))
                throw new Error(`invalid anchor "${anchor}"`);
              addRef.call(this, `#${anchor}`);
            }
          }
        });
        return localRefs;
        function checkAmbiguosRef(sch1, sch2, ref2) {
          if (sch2 !== void 0 && !equal(sch1, sch2))
            throw ambiguos(ref2);
        }
        function ambiguos(ref2) {
          return new Error(`reference "${ref2}" resolves to more than one schema`);
        }
      }
      exports.getSchemaRefs = getSchemaRefs;
    }
  });

  // node_modules/ajv/dist/compile/validate/index.js
  var require_validate = __commonJS({
    "node_modules/ajv/dist/compile/validate/index.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      exports.getData = exports.KeywordCxt = exports.validateFunctionCode = void 0;
      var boolSchema_1 = require_boolSchema();
      var dataType_1 = require_dataType();
      var applicability_1 = require_applicability();
      var dataType_2 = require_dataType();
      var defaults_1 = require_defaults();
      var keyword_1 = require_keyword();
      var subschema_1 = require_subschema();
      var codegen_1 = require_codegen();
      var names_1 = require_names();
      var resolve_1 = require_resolve();
      var util_1 = require_util();
      var errors_1 = require_errors();
      function validateFunctionCode(it) {
        if (isSchemaObj(it)) {
          checkKeywords(it);
          if (schemaCxtHasRules(it)) {
            topSchemaObjCode(it);
            return;
          }
        }
        validateFunction(it, () => (0, boolSchema_1.topBoolOrEmptySchema)(it));
      }
      exports.validateFunctionCode = validateFunctionCode;
      function validateFunction({ gen, validateName, schema, schemaEnv, opts }, body) {
        if (opts.code.es5) {
          gen.func(validateName, (0, codegen_1._)`${names_1.default.data}, ${names_1.default.valCxt}`, schemaEnv.$async, () => {
            gen.code((0, codegen_1._)`"use strict"; ${funcSourceUrl(schema, opts)}`);
            destructureValCxtES5(gen, opts);
            gen.code(body);
          });
        } else {
          gen.func(validateName, (0, codegen_1._)`${names_1.default.data}, ${destructureValCxt(opts)}`, schemaEnv.$async, () => gen.code(funcSourceUrl(schema, opts)).code(body));
        }
      }
      function destructureValCxt(opts) {
        return (0, codegen_1._)`{${names_1.default.instancePath}="", ${names_1.default.parentData}, ${names_1.default.parentDataProperty}, ${names_1.default.rootData}=${names_1.default.data}${opts.dynamicRef ? (0, codegen_1._)`, ${names_1.default.dynamicAnchors}={}` : codegen_1.nil}}={}`;
      }
      function destructureValCxtES5(gen, opts) {
        gen.if(names_1.default.valCxt, () => {
          gen.var(names_1.default.instancePath, (0, codegen_1._)`${names_1.default.valCxt}.${names_1.default.instancePath}`);
          gen.var(names_1.default.parentData, (0, codegen_1._)`${names_1.default.valCxt}.${names_1.default.parentData}`);
          gen.var(names_1.default.parentDataProperty, (0, codegen_1._)`${names_1.default.valCxt}.${names_1.default.parentDataProperty}`);
          gen.var(names_1.default.rootData, (0, codegen_1._)`${names_1.default.valCxt}.${names_1.default.rootData}`);
          if (opts.dynamicRef)
            gen.var(names_1.default.dynamicAnchors, (0, codegen_1._)`${names_1.default.valCxt}.${names_1.default.dynamicAnchors}`);
        }, () => {
          gen.var(names_1.default.instancePath, (0, codegen_1._)`""`);
          gen.var(names_1.default.parentData, (0, codegen_1._)`undefined`);
          gen.var(names_1.default.parentDataProperty, (0, codegen_1._)`undefined`);
          gen.var(names_1.default.rootData, names_1.default.data);
          if (opts.dynamicRef)
            gen.var(names_1.default.dynamicAnchors, (0, codegen_1._)`{}`);
        });
      }
      function topSchemaObjCode(it) {
        const { schema, opts, gen } = it;
        validateFunction(it, () => {
          if (opts.$comment && schema.$comment)
            commentKeyword(it);
          checkNoDefault(it);
          gen.let(names_1.default.vErrors, null);
          gen.let(names_1.default.errors, 0);
          if (opts.unevaluated)
            resetEvaluated(it);
          typeAndKeywords(it);
          returnResults(it);
        });
        return;
      }
      function resetEvaluated(it) {
        const { gen, validateName } = it;
        it.evaluated = gen.const("evaluated", (0, codegen_1._)`${validateName}.evaluated`);
        gen.if((0, codegen_1._)`${it.evaluated}.dynamicProps`, () => gen.assign((0, codegen_1._)`${it.evaluated}.props`, (0, codegen_1._)`undefined`));
        gen.if((0, codegen_1._)`${it.evaluated}.dynamicItems`, () => gen.assign((0, codegen_1._)`${it.evaluated}.items`, (0, codegen_1._)`undefined`));
      }
      function funcSourceUrl(schema, opts) {
        const schId = typeof schema == "object" && schema[opts.schemaId];
        return schId && (opts.code.source || opts.code.process) ? (0, codegen_1._)`/*# sourceURL=${schId} */` : codegen_1.nil;
      }
      function subschemaCode(it, valid) {
        if (isSchemaObj(it)) {
          checkKeywords(it);
          if (schemaCxtHasRules(it)) {
            subSchemaObjCode(it, valid);
            return;
          }
        }
        (0, boolSchema_1.boolOrEmptySchema)(it, valid);
      }
      function schemaCxtHasRules({ schema, self }) {
        if (typeof schema == "boolean")
          return !schema;
        for (const key in schema)
          if (self.RULES.all[key])
            return true;
        return false;
      }
      function isSchemaObj(it) {
        return typeof it.schema != "boolean";
      }
      function subSchemaObjCode(it, valid) {
        const { schema, gen, opts } = it;
        if (opts.$comment && schema.$comment)
          commentKeyword(it);
        updateContext(it);
        checkAsyncSchema(it);
        const errsCount = gen.const("_errs", names_1.default.errors);
        typeAndKeywords(it, errsCount);
        gen.var(valid, (0, codegen_1._)`${errsCount} === ${names_1.default.errors}`);
      }
      function checkKeywords(it) {
        (0, util_1.checkUnknownRules)(it);
        checkRefsAndKeywords(it);
      }
      function typeAndKeywords(it, errsCount) {
        if (it.opts.jtd)
          return schemaKeywords(it, [], false, errsCount);
        const types = (0, dataType_1.getSchemaTypes)(it.schema);
        const checkedTypes = (0, dataType_1.coerceAndCheckDataType)(it, types);
        schemaKeywords(it, types, !checkedTypes, errsCount);
      }
      function checkRefsAndKeywords(it) {
        const { schema, errSchemaPath, opts, self } = it;
        if (schema.$ref && opts.ignoreKeywordsWithRef && (0, util_1.schemaHasRulesButRef)(schema, self.RULES)) {
          self.logger.warn(`$ref: keywords ignored in schema at path "${errSchemaPath}"`);
        }
      }
      function checkNoDefault(it) {
        const { schema, opts } = it;
        if (schema.default !== void 0 && opts.useDefaults && opts.strictSchema) {
          (0, util_1.checkStrictMode)(it, "default is ignored in the schema root");
        }
      }
      function updateContext(it) {
        const schId = it.schema[it.opts.schemaId];
        if (schId)
          it.baseId = (0, resolve_1.resolveUrl)(it.opts.uriResolver, it.baseId, schId);
      }
      function checkAsyncSchema(it) {
        if (it.schema.$async && !it.schemaEnv.$async)
          throw new Error("async schema in sync schema");
      }
      function commentKeyword({ gen, schemaEnv, schema, errSchemaPath, opts }) {
        const msg = schema.$comment;
        if (opts.$comment === true) {
          gen.code((0, codegen_1._)`${names_1.default.self}.logger.log(${msg})`);
        } else if (typeof opts.$comment == "function") {
          const schemaPath = (0, codegen_1.str)`${errSchemaPath}/$comment`;
          const rootName = gen.scopeValue("root", { ref: schemaEnv.root });
          gen.code((0, codegen_1._)`${names_1.default.self}.opts.$comment(${msg}, ${schemaPath}, ${rootName}.schema)`);
        }
      }
      function returnResults(it) {
        const { gen, schemaEnv, validateName, ValidationError, opts } = it;
        if (schemaEnv.$async) {
          gen.if((0, codegen_1._)`${names_1.default.errors} === 0`, () => gen.return(names_1.default.data), () => gen.throw((0, codegen_1._)`new ${ValidationError}(${names_1.default.vErrors})`));
        } else {
          gen.assign((0, codegen_1._)`${validateName}.errors`, names_1.default.vErrors);
          if (opts.unevaluated)
            assignEvaluated(it);
          gen.return((0, codegen_1._)`${names_1.default.errors} === 0`);
        }
      }
      function assignEvaluated({ gen, evaluated, props, items }) {
        if (props instanceof codegen_1.Name)
          gen.assign((0, codegen_1._)`${evaluated}.props`, props);
        if (items instanceof codegen_1.Name)
          gen.assign((0, codegen_1._)`${evaluated}.items`, items);
      }
      function schemaKeywords(it, types, typeErrors, errsCount) {
        const { gen, schema, data, allErrors, opts, self } = it;
        const { RULES } = self;
        if (schema.$ref && (opts.ignoreKeywordsWithRef || !(0, util_1.schemaHasRulesButRef)(schema, RULES))) {
          gen.block(() => keywordCode(it, "$ref", RULES.all.$ref.definition));
          return;
        }
        if (!opts.jtd)
          checkStrictTypes(it, types);
        gen.block(() => {
          for (const group of RULES.rules)
            groupKeywords(group);
          groupKeywords(RULES.post);
        });
        function groupKeywords(group) {
          if (!(0, applicability_1.shouldUseGroup)(schema, group))
            return;
          if (group.type) {
            gen.if((0, dataType_2.checkDataType)(group.type, data, opts.strictNumbers));
            iterateKeywords(it, group);
            if (types.length === 1 && types[0] === group.type && typeErrors) {
              gen.else();
              (0, dataType_2.reportTypeError)(it);
            }
            gen.endIf();
          } else {
            iterateKeywords(it, group);
          }
          if (!allErrors)
            gen.if((0, codegen_1._)`${names_1.default.errors} === ${errsCount || 0}`);
        }
      }
      function iterateKeywords(it, group) {
        const { gen, schema, opts: { useDefaults } } = it;
        if (useDefaults)
          (0, defaults_1.assignDefaults)(it, group.type);
        gen.block(() => {
          for (const rule of group.rules) {
            if ((0, applicability_1.shouldUseRule)(schema, rule)) {
              keywordCode(it, rule.keyword, rule.definition, group.type);
            }
          }
        });
      }
      function checkStrictTypes(it, types) {
        if (it.schemaEnv.meta || !it.opts.strictTypes)
          return;
        checkContextTypes(it, types);
        if (!it.opts.allowUnionTypes)
          checkMultipleTypes(it, types);
        checkKeywordTypes(it, it.dataTypes);
      }
      function checkContextTypes(it, types) {
        if (!types.length)
          return;
        if (!it.dataTypes.length) {
          it.dataTypes = types;
          return;
        }
        types.forEach((t) => {
          if (!includesType(it.dataTypes, t)) {
            strictTypesError(it, `type "${t}" not allowed by context "${it.dataTypes.join(",")}"`);
          }
        });
        narrowSchemaTypes(it, types);
      }
      function checkMultipleTypes(it, ts) {
        if (ts.length > 1 && !(ts.length === 2 && ts.includes("null"))) {
          strictTypesError(it, "use allowUnionTypes to allow union type keyword");
        }
      }
      function checkKeywordTypes(it, ts) {
        const rules = it.self.RULES.all;
        for (const keyword in rules) {
          const rule = rules[keyword];
          if (typeof rule == "object" && (0, applicability_1.shouldUseRule)(it.schema, rule)) {
            const { type } = rule.definition;
            if (type.length && !type.some((t) => hasApplicableType(ts, t))) {
              strictTypesError(it, `missing type "${type.join(",")}" for keyword "${keyword}"`);
            }
          }
        }
      }
      function hasApplicableType(schTs, kwdT) {
        return schTs.includes(kwdT) || kwdT === "number" && schTs.includes("integer");
      }
      function includesType(ts, t) {
        return ts.includes(t) || t === "integer" && ts.includes("number");
      }
      function narrowSchemaTypes(it, withTypes) {
        const ts = [];
        for (const t of it.dataTypes) {
          if (includesType(withTypes, t))
            ts.push(t);
          else if (withTypes.includes("integer") && t === "number")
            ts.push("integer");
        }
        it.dataTypes = ts;
      }
      function strictTypesError(it, msg) {
        const schemaPath = it.schemaEnv.baseId + it.errSchemaPath;
        msg += ` at "${schemaPath}" (strictTypes)`;
        (0, util_1.checkStrictMode)(it, msg, it.opts.strictTypes);
      }
      var KeywordCxt = class {
        constructor(it, def, keyword) {
          (0, keyword_1.validateKeywordUsage)(it, def, keyword);
          this.gen = it.gen;
          this.allErrors = it.allErrors;
          this.keyword = keyword;
          this.data = it.data;
          this.schema = it.schema[keyword];
          this.$data = def.$data && it.opts.$data && this.schema && this.schema.$data;
          this.schemaValue = (0, util_1.schemaRefOrVal)(it, this.schema, keyword, this.$data);
          this.schemaType = def.schemaType;
          this.parentSchema = it.schema;
          this.params = {};
          this.it = it;
          this.def = def;
          if (this.$data) {
            this.schemaCode = it.gen.const("vSchema", getData(this.$data, it));
          } else {
            this.schemaCode = this.schemaValue;
            if (!(0, keyword_1.validSchemaType)(this.schema, def.schemaType, def.allowUndefined)) {
              throw new Error(`${keyword} value must be ${JSON.stringify(def.schemaType)}`);
            }
          }
          if ("code" in def ? def.trackErrors : def.errors !== false) {
            this.errsCount = it.gen.const("_errs", names_1.default.errors);
          }
        }
        result(condition, successAction, failAction) {
          this.failResult((0, codegen_1.not)(condition), successAction, failAction);
        }
        failResult(condition, successAction, failAction) {
          this.gen.if(condition);
          if (failAction)
            failAction();
          else
            this.error();
          if (successAction) {
            this.gen.else();
            successAction();
            if (this.allErrors)
              this.gen.endIf();
          } else {
            if (this.allErrors)
              this.gen.endIf();
            else
              this.gen.else();
          }
        }
        pass(condition, failAction) {
          this.failResult((0, codegen_1.not)(condition), void 0, failAction);
        }
        fail(condition) {
          if (condition === void 0) {
            this.error();
            if (!this.allErrors)
              this.gen.if(false);
            return;
          }
          this.gen.if(condition);
          this.error();
          if (this.allErrors)
            this.gen.endIf();
          else
            this.gen.else();
        }
        fail$data(condition) {
          if (!this.$data)
            return this.fail(condition);
          const { schemaCode } = this;
          this.fail((0, codegen_1._)`${schemaCode} !== undefined && (${(0, codegen_1.or)(this.invalid$data(), condition)})`);
        }
        error(append, errorParams, errorPaths) {
          if (errorParams) {
            this.setParams(errorParams);
            this._error(append, errorPaths);
            this.setParams({});
            return;
          }
          this._error(append, errorPaths);
        }
        _error(append, errorPaths) {
          ;
          (append ? errors_1.reportExtraError : errors_1.reportError)(this, this.def.error, errorPaths);
        }
        $dataError() {
          (0, errors_1.reportError)(this, this.def.$dataError || errors_1.keyword$DataError);
        }
        reset() {
          if (this.errsCount === void 0)
            throw new Error('add "trackErrors" to keyword definition');
          (0, errors_1.resetErrorsCount)(this.gen, this.errsCount);
        }
        ok(cond) {
          if (!this.allErrors)
            this.gen.if(cond);
        }
        setParams(obj, assign) {
          if (assign)
            Object.assign(this.params, obj);
          else
            this.params = obj;
        }
        block$data(valid, codeBlock, $dataValid = codegen_1.nil) {
          this.gen.block(() => {
            this.check$data(valid, $dataValid);
            codeBlock();
          });
        }
        check$data(valid = codegen_1.nil, $dataValid = codegen_1.nil) {
          if (!this.$data)
            return;
          const { gen, schemaCode, schemaType, def } = this;
          gen.if((0, codegen_1.or)((0, codegen_1._)`${schemaCode} === undefined`, $dataValid));
          if (valid !== codegen_1.nil)
            gen.assign(valid, true);
          if (schemaType.length || def.validateSchema) {
            gen.elseIf(this.invalid$data());
            this.$dataError();
            if (valid !== codegen_1.nil)
              gen.assign(valid, false);
          }
          gen.else();
        }
        invalid$data() {
          const { gen, schemaCode, schemaType, def, it } = this;
          return (0, codegen_1.or)(wrong$DataType(), invalid$DataSchema());
          function wrong$DataType() {
            if (schemaType.length) {
              if (!(schemaCode instanceof codegen_1.Name))
                throw new Error("ajv implementation error");
              const st = Array.isArray(schemaType) ? schemaType : [schemaType];
              return (0, codegen_1._)`${(0, dataType_2.checkDataTypes)(st, schemaCode, it.opts.strictNumbers, dataType_2.DataType.Wrong)}`;
            }
            return codegen_1.nil;
          }
          function invalid$DataSchema() {
            if (def.validateSchema) {
              const validateSchemaRef = gen.scopeValue("validate$data", { ref: def.validateSchema });
              return (0, codegen_1._)`!${validateSchemaRef}(${schemaCode})`;
            }
            return codegen_1.nil;
          }
        }
        subschema(appl, valid) {
          const subschema = (0, subschema_1.getSubschema)(this.it, appl);
          (0, subschema_1.extendSubschemaData)(subschema, this.it, appl);
          (0, subschema_1.extendSubschemaMode)(subschema, appl);
          const nextContext = { ...this.it, ...subschema, items: void 0, props: void 0 };
          subschemaCode(nextContext, valid);
          return nextContext;
        }
        mergeEvaluated(schemaCxt, toName) {
          const { it, gen } = this;
          if (!it.opts.unevaluated)
            return;
          if (it.props !== true && schemaCxt.props !== void 0) {
            it.props = util_1.mergeEvaluated.props(gen, schemaCxt.props, it.props, toName);
          }
          if (it.items !== true && schemaCxt.items !== void 0) {
            it.items = util_1.mergeEvaluated.items(gen, schemaCxt.items, it.items, toName);
          }
        }
        mergeValidEvaluated(schemaCxt, valid) {
          const { it, gen } = this;
          if (it.opts.unevaluated && (it.props !== true || it.items !== true)) {
            gen.if(valid, () => this.mergeEvaluated(schemaCxt, codegen_1.Name));
            return true;
          }
        }
      };
      exports.KeywordCxt = KeywordCxt;
      function keywordCode(it, keyword, def, ruleType) {
        const cxt = new KeywordCxt(it, def, keyword);
        if ("code" in def) {
          def.code(cxt, ruleType);
        } else if (cxt.$data && def.validate) {
          (0, keyword_1.funcKeywordCode)(cxt, def);
        } else if ("macro" in def) {
          (0, keyword_1.macroKeywordCode)(cxt, def);
        } else if (def.compile || def.validate) {
          (0, keyword_1.funcKeywordCode)(cxt, def);
        }
      }
      var JSON_POINTER = /^\/(?:[^~]|~0|~1)*$/;
      var RELATIVE_JSON_POINTER = /^([0-9]+)(#|\/(?:[^~]|~0|~1)*)?$/;
      function getData($data, { dataLevel, dataNames, dataPathArr }) {
        let jsonPointer;
        let data;
        if ($data === "")
          return names_1.default.rootData;
        if ($data[0] === "/") {
          if (!JSON_POINTER.test($data))
            throw new Error(`Invalid JSON-pointer: ${$data}`);
          jsonPointer = $data;
          data = names_1.default.rootData;
        } else {
          const matches = RELATIVE_JSON_POINTER.exec($data);
          if (!matches)
            throw new Error(`Invalid JSON-pointer: ${$data}`);
          const up = +matches[1];
          jsonPointer = matches[2];
          if (jsonPointer === "#") {
            if (up >= dataLevel)
              throw new Error(errorMsg("property/index", up));
            return dataPathArr[dataLevel - up];
          }
          if (up > dataLevel)
            throw new Error(errorMsg("data", up));
          data = dataNames[dataLevel - up];
          if (!jsonPointer)
            return data;
        }
        let expr = data;
        const segments = jsonPointer.split("/");
        for (const segment of segments) {
          if (segment) {
            data = (0, codegen_1._)`${data}${(0, codegen_1.getProperty)((0, util_1.unescapeJsonPointer)(segment))}`;
            expr = (0, codegen_1._)`${expr} && ${data}`;
          }
        }
        return expr;
        function errorMsg(pointerType, up) {
          return `Cannot access ${pointerType} ${up} levels up, current level is ${dataLevel}`;
        }
      }
      exports.getData = getData;
    }
  });

  // node_modules/ajv/dist/runtime/validation_error.js
  var require_validation_error = __commonJS({
    "node_modules/ajv/dist/runtime/validation_error.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var ValidationError = class extends Error {
        constructor(errors) {
          super("validation failed");
          this.errors = errors;
          this.ajv = this.validation = true;
        }
      };
      exports.default = ValidationError;
    }
  });

  // node_modules/ajv/dist/compile/ref_error.js
  var require_ref_error = __commonJS({
    "node_modules/ajv/dist/compile/ref_error.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var resolve_1 = require_resolve();
      var MissingRefError = class extends Error {
        constructor(resolver, baseId, ref2, msg) {
          super(msg || `can't resolve reference ${ref2} from id ${baseId}`);
          this.missingRef = (0, resolve_1.resolveUrl)(resolver, baseId, ref2);
          this.missingSchema = (0, resolve_1.normalizeId)((0, resolve_1.getFullPath)(resolver, this.missingRef));
        }
      };
      exports.default = MissingRefError;
    }
  });

  // node_modules/ajv/dist/compile/index.js
  var require_compile = __commonJS({
    "node_modules/ajv/dist/compile/index.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      exports.resolveSchema = exports.getCompilingSchema = exports.resolveRef = exports.compileSchema = exports.SchemaEnv = void 0;
      var codegen_1 = require_codegen();
      var validation_error_1 = require_validation_error();
      var names_1 = require_names();
      var resolve_1 = require_resolve();
      var util_1 = require_util();
      var validate_1 = require_validate();
      var SchemaEnv = class {
        constructor(env) {
          var _a;
          this.refs = {};
          this.dynamicAnchors = {};
          let schema;
          if (typeof env.schema == "object")
            schema = env.schema;
          this.schema = env.schema;
          this.schemaId = env.schemaId;
          this.root = env.root || this;
          this.baseId = (_a = env.baseId) !== null && _a !== void 0 ? _a : (0, resolve_1.normalizeId)(schema === null || schema === void 0 ? void 0 : schema[env.schemaId || "$id"]);
          this.schemaPath = env.schemaPath;
          this.localRefs = env.localRefs;
          this.meta = env.meta;
          this.$async = schema === null || schema === void 0 ? void 0 : schema.$async;
          this.refs = {};
        }
      };
      exports.SchemaEnv = SchemaEnv;
      function compileSchema(sch) {
        const _sch = getCompilingSchema.call(this, sch);
        if (_sch)
          return _sch;
        const rootId = (0, resolve_1.getFullPath)(this.opts.uriResolver, sch.root.baseId);
        const { es5, lines } = this.opts.code;
        const { ownProperties } = this.opts;
        const gen = new codegen_1.CodeGen(this.scope, { es5, lines, ownProperties });
        let _ValidationError;
        if (sch.$async) {
          _ValidationError = gen.scopeValue("Error", {
            ref: validation_error_1.default,
            code: (0, codegen_1._)`require("ajv/dist/runtime/validation_error").default`
          });
        }
        const validateName = gen.scopeName("validate");
        sch.validateName = validateName;
        const schemaCxt = {
          gen,
          allErrors: this.opts.allErrors,
          data: names_1.default.data,
          parentData: names_1.default.parentData,
          parentDataProperty: names_1.default.parentDataProperty,
          dataNames: [names_1.default.data],
          dataPathArr: [codegen_1.nil],
          // TODO can its length be used as dataLevel if nil is removed?
          dataLevel: 0,
          dataTypes: [],
          definedProperties: /* @__PURE__ */ new Set(),
          topSchemaRef: gen.scopeValue("schema", this.opts.code.source === true ? { ref: sch.schema, code: (0, codegen_1.stringify)(sch.schema) } : { ref: sch.schema }),
          validateName,
          ValidationError: _ValidationError,
          schema: sch.schema,
          schemaEnv: sch,
          rootId,
          baseId: sch.baseId || rootId,
          schemaPath: codegen_1.nil,
          errSchemaPath: sch.schemaPath || (this.opts.jtd ? "" : "#"),
          errorPath: (0, codegen_1._)`""`,
          opts: this.opts,
          self: this
        };
        let sourceCode;
        try {
          this._compilations.add(sch);
          (0, validate_1.validateFunctionCode)(schemaCxt);
          gen.optimize(this.opts.code.optimize);
          const validateCode = gen.toString();
          sourceCode = `${gen.scopeRefs(names_1.default.scope)}return ${validateCode}`;
          if (this.opts.code.process)
            sourceCode = this.opts.code.process(sourceCode, sch);
          const makeValidate = new Function(`${names_1.default.self}`, `${names_1.default.scope}`, sourceCode);
          const validate = makeValidate(this, this.scope.get());
          this.scope.value(validateName, { ref: validate });
          validate.errors = null;
          validate.schema = sch.schema;
          validate.schemaEnv = sch;
          if (sch.$async)
            validate.$async = true;
          if (this.opts.code.source === true) {
            validate.source = { validateName, validateCode, scopeValues: gen._values };
          }
          if (this.opts.unevaluated) {
            const { props, items } = schemaCxt;
            validate.evaluated = {
              props: props instanceof codegen_1.Name ? void 0 : props,
              items: items instanceof codegen_1.Name ? void 0 : items,
              dynamicProps: props instanceof codegen_1.Name,
              dynamicItems: items instanceof codegen_1.Name
            };
            if (validate.source)
              validate.source.evaluated = (0, codegen_1.stringify)(validate.evaluated);
          }
          sch.validate = validate;
          return sch;
        } catch (e) {
          delete sch.validate;
          delete sch.validateName;
          if (sourceCode)
            this.logger.error("Error compiling schema, function code:", sourceCode);
          throw e;
        } finally {
          this._compilations.delete(sch);
        }
      }
      exports.compileSchema = compileSchema;
      function resolveRef(root, baseId, ref2) {
        var _a;
        ref2 = (0, resolve_1.resolveUrl)(this.opts.uriResolver, baseId, ref2);
        const schOrFunc = root.refs[ref2];
        if (schOrFunc)
          return schOrFunc;
        let _sch = resolve.call(this, root, ref2);
        if (_sch === void 0) {
          const schema = (_a = root.localRefs) === null || _a === void 0 ? void 0 : _a[ref2];
          const { schemaId } = this.opts;
          if (schema)
            _sch = new SchemaEnv({ schema, schemaId, root, baseId });
        }
        if (_sch === void 0)
          return;
        return root.refs[ref2] = inlineOrCompile.call(this, _sch);
      }
      exports.resolveRef = resolveRef;
      function inlineOrCompile(sch) {
        if ((0, resolve_1.inlineRef)(sch.schema, this.opts.inlineRefs))
          return sch.schema;
        return sch.validate ? sch : compileSchema.call(this, sch);
      }
      function getCompilingSchema(schEnv) {
        for (const sch of this._compilations) {
          if (sameSchemaEnv(sch, schEnv))
            return sch;
        }
      }
      exports.getCompilingSchema = getCompilingSchema;
      function sameSchemaEnv(s1, s2) {
        return s1.schema === s2.schema && s1.root === s2.root && s1.baseId === s2.baseId;
      }
      function resolve(root, ref2) {
        let sch;
        while (typeof (sch = this.refs[ref2]) == "string")
          ref2 = sch;
        return sch || this.schemas[ref2] || resolveSchema.call(this, root, ref2);
      }
      function resolveSchema(root, ref2) {
        const p = this.opts.uriResolver.parse(ref2);
        const refPath = (0, resolve_1._getFullPath)(this.opts.uriResolver, p);
        let baseId = (0, resolve_1.getFullPath)(this.opts.uriResolver, root.baseId, void 0);
        if (Object.keys(root.schema).length > 0 && refPath === baseId) {
          return getJsonPointer.call(this, p, root);
        }
        const id = (0, resolve_1.normalizeId)(refPath);
        const schOrRef = this.refs[id] || this.schemas[id];
        if (typeof schOrRef == "string") {
          const sch = resolveSchema.call(this, root, schOrRef);
          if (typeof (sch === null || sch === void 0 ? void 0 : sch.schema) !== "object")
            return;
          return getJsonPointer.call(this, p, sch);
        }
        if (typeof (schOrRef === null || schOrRef === void 0 ? void 0 : schOrRef.schema) !== "object")
          return;
        if (!schOrRef.validate)
          compileSchema.call(this, schOrRef);
        if (id === (0, resolve_1.normalizeId)(ref2)) {
          const { schema } = schOrRef;
          const { schemaId } = this.opts;
          const schId = schema[schemaId];
          if (schId)
            baseId = (0, resolve_1.resolveUrl)(this.opts.uriResolver, baseId, schId);
          return new SchemaEnv({ schema, schemaId, root, baseId });
        }
        return getJsonPointer.call(this, p, schOrRef);
      }
      exports.resolveSchema = resolveSchema;
      var PREVENT_SCOPE_CHANGE = /* @__PURE__ */ new Set([
        "properties",
        "patternProperties",
        "enum",
        "dependencies",
        "definitions"
      ]);
      function getJsonPointer(parsedRef, { baseId, schema, root }) {
        var _a;
        if (((_a = parsedRef.fragment) === null || _a === void 0 ? void 0 : _a[0]) !== "/")
          return;
        for (const part of parsedRef.fragment.slice(1).split("/")) {
          if (typeof schema === "boolean")
            return;
          const partSchema = schema[(0, util_1.unescapeFragment)(part)];
          if (partSchema === void 0)
            return;
          schema = partSchema;
          const schId = typeof schema === "object" && schema[this.opts.schemaId];
          if (!PREVENT_SCOPE_CHANGE.has(part) && schId) {
            baseId = (0, resolve_1.resolveUrl)(this.opts.uriResolver, baseId, schId);
          }
        }
        let env;
        if (typeof schema != "boolean" && schema.$ref && !(0, util_1.schemaHasRulesButRef)(schema, this.RULES)) {
          const $ref = (0, resolve_1.resolveUrl)(this.opts.uriResolver, baseId, schema.$ref);
          env = resolveSchema.call(this, root, $ref);
        }
        const { schemaId } = this.opts;
        env = env || new SchemaEnv({ schema, schemaId, root, baseId });
        if (env.schema !== env.root.schema)
          return env;
        return void 0;
      }
    }
  });

  // node_modules/ajv/dist/refs/data.json
  var require_data = __commonJS({
    "node_modules/ajv/dist/refs/data.json"(exports, module) {
      module.exports = {
        $id: "https://raw.githubusercontent.com/ajv-validator/ajv/master/lib/refs/data.json#",
        description: "Meta-schema for $data reference (JSON AnySchema extension proposal)",
        type: "object",
        required: ["$data"],
        properties: {
          $data: {
            type: "string",
            anyOf: [{ format: "relative-json-pointer" }, { format: "json-pointer" }]
          }
        },
        additionalProperties: false
      };
    }
  });

  // node_modules/fast-uri/lib/utils.js
  var require_utils = __commonJS({
    "node_modules/fast-uri/lib/utils.js"(exports, module) {
      "use strict";
      var isUUID = RegExp.prototype.test.bind(/^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/iu);
      var isIPv4 = RegExp.prototype.test.bind(/^(?:(?:25[0-5]|2[0-4]\d|1\d{2}|[1-9]\d|\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d{2}|[1-9]\d|\d)$/u);
      var isPort = RegExp.prototype.test.bind(/^\d*$/u);
      var isHexPair = RegExp.prototype.test.bind(/^[\da-f]{2}$/iu);
      var isUnreserved = RegExp.prototype.test.bind(/^[\da-z\-._~]$/iu);
      var isPathCharacter = RegExp.prototype.test.bind(/^[A-Za-z0-9\-._~!$&'()*+,;=:@/]$/u);
      var isQueryFragmentCharacter = RegExp.prototype.test.bind(/^[A-Za-z0-9\-._~!$&'()*+,;=:@/?]$/u);
      var isUserinfoCharacter = RegExp.prototype.test.bind(/^[A-Za-z0-9\-._~!$&'()*+,;=:]$/u);
      var BYTE_HEX = new Array(256);
      {
        const HEX_DIGITS = "0123456789ABCDEF";
        for (let i = 0; i < 256; i++) {
          BYTE_HEX[i] = "%" + HEX_DIGITS[i >> 4] + HEX_DIGITS[i & 15];
        }
      }
      function percentEncodeNonAscii(cp) {
        if (cp < 2048) {
          return BYTE_HEX[192 | cp >> 6] + BYTE_HEX[128 | cp & 63];
        }
        if (cp < 65536) {
          return BYTE_HEX[224 | cp >> 12] + BYTE_HEX[128 | cp >> 6 & 63] + BYTE_HEX[128 | cp & 63];
        }
        return BYTE_HEX[240 | cp >> 18] + BYTE_HEX[128 | cp >> 12 & 63] + BYTE_HEX[128 | cp >> 6 & 63] + BYTE_HEX[128 | cp & 63];
      }
      function stringArrayToHexStripped(input) {
        let acc = "";
        let code = 0;
        let i = 0;
        for (i = 0; i < input.length; i++) {
          code = input[i].charCodeAt(0);
          if (code === 48) {
            continue;
          }
          if (!(code >= 48 && code <= 57 || code >= 65 && code <= 70 || code >= 97 && code <= 102)) {
            return "";
          }
          acc += input[i];
          break;
        }
        for (i += 1; i < input.length; i++) {
          code = input[i].charCodeAt(0);
          if (!(code >= 48 && code <= 57 || code >= 65 && code <= 70 || code >= 97 && code <= 102)) {
            return "";
          }
          acc += input[i];
        }
        return acc;
      }
      var isHextet = RegExp.prototype.test.bind(/^[\dA-Fa-f]{1,4}$/);
      var isIPvFuture = RegExp.prototype.test.bind(/^[vV][\dA-Fa-f]+\.[A-Za-z\d\-._~!$&'()*+,;=:]+$/);
      var isZoneCharacter = RegExp.prototype.test.bind(/^[A-Za-z\d\-._~]$/);
      var nonSimpleDomain = RegExp.prototype.test.bind(/[^!"$&'()*+,\-.;=_`a-z{}~]/u);
      function isZoneIdentifier(zone) {
        if (zone.length === 0) return false;
        for (let i = 0; i < zone.length; i++) {
          if (isZoneCharacter(zone[i])) continue;
          if (zone[i] === "%" && i + 2 < zone.length && isHexPair(zone.slice(i + 1, i + 3))) {
            i += 2;
            continue;
          }
          return false;
        }
        return true;
      }
      function compressIPv6ZeroRun(hextets) {
        let bestStart = -1;
        let bestLength = 0;
        let runStart = -1;
        let runLength = 0;
        for (let i = 0; i < hextets.length; i++) {
          if (hextets[i] === "0") {
            if (runStart === -1) runStart = i;
            runLength++;
            if (runLength > bestLength) {
              bestLength = runLength;
              bestStart = runStart;
            }
          } else {
            runStart = -1;
            runLength = 0;
          }
        }
        if (bestLength < 2) return hextets.join(":");
        const head = hextets.slice(0, bestStart).join(":");
        const tail = hextets.slice(bestStart + bestLength).join(":");
        return head + "::" + tail;
      }
      function normalizeIPv6Address(input) {
        const compression = input.indexOf("::");
        if (compression !== -1 && input.indexOf("::", compression + 1) !== -1) return void 0;
        const left = compression === -1 ? input.split(":") : input.slice(0, compression).split(":");
        const right = compression === -1 ? [] : input.slice(compression + 2).split(":");
        if (compression !== -1) {
          if (left.length === 1 && left[0] === "") left.length = 0;
          if (right.length === 1 && right[0] === "") right.length = 0;
        }
        const parts = left.concat(right);
        let hextetCount = 0;
        for (let i = 0; i < parts.length; i++) {
          const part = parts[i];
          if (part === "") return void 0;
          if (part.indexOf(".") !== -1) {
            if (i !== parts.length - 1 || compression !== -1 && right.length === 0 || !isIPv4(part)) return void 0;
            hextetCount += 2;
            continue;
          }
          if (!isHextet(part)) return void 0;
          parts[i] = parseInt(part, 16).toString(16);
          hextetCount++;
        }
        if (compression === -1) {
          if (hextetCount !== 8) return void 0;
          return compressIPv6ZeroRun(parts);
        }
        if (hextetCount >= 8) return void 0;
        const expanded = parts.slice(0, left.length);
        for (let i = hextetCount; i < 8; i++) expanded.push("0");
        for (let i = left.length; i < parts.length; i++) expanded.push(parts[i]);
        return compressIPv6ZeroRun(expanded);
      }
      function normalizeIPv6(host) {
        const bracketed = host[0] === "[" && host[host.length - 1] === "]";
        const hasBracket = host[0] === "[" || host[host.length - 1] === "]";
        if (hasBracket && !bracketed) return { host, isIPV6: false, error: true };
        let input = bracketed ? host.slice(1, -1) : host;
        if (bracketed && isIPvFuture(input)) {
          input = input.toLowerCase();
          return { host: `[${input}]`, escapedHost: input, isIPV6: false, isIPVFuture: true };
        }
        if (findToken(input, ":") < 2) {
          return { host, isIPV6: false, error: bracketed };
        }
        let zoneIdentifier = "";
        const zoneSeparator = input.indexOf("%");
        if (zoneSeparator !== -1) {
          const separatorLength = input.slice(zoneSeparator, zoneSeparator + 3).toLowerCase() === "%25" ? 3 : 1;
          zoneIdentifier = input.slice(zoneSeparator + separatorLength);
          if (!isZoneIdentifier(zoneIdentifier)) return { host, isIPV6: false, error: true };
          input = input.slice(0, zoneSeparator);
        }
        const address = normalizeIPv6Address(input);
        if (address === void 0) return { host, isIPV6: false, error: true };
        return {
          host: address + (zoneIdentifier ? "%" + zoneIdentifier : ""),
          escapedHost: address + (zoneIdentifier ? "%25" + zoneIdentifier : ""),
          isIPV6: true
        };
      }
      function findToken(str, token) {
        let ind = 0;
        for (let i = 0; i < str.length; i++) {
          if (str[i] === token) ind++;
        }
        return ind;
      }
      function removeDotSegments(path) {
        let input = path;
        const output = [];
        let nextSlash = -1;
        let len = 0;
        while (len = input.length) {
          if (len === 1) {
            if (input === ".") {
              break;
            } else if (input === "/") {
              output.push("/");
              break;
            } else {
              output.push(input);
              break;
            }
          } else if (len === 2) {
            if (input[0] === ".") {
              if (input[1] === ".") {
                break;
              } else if (input[1] === "/") {
                input = input.slice(2);
                continue;
              }
            } else if (input[0] === "/") {
              if (input[1] === "." || input[1] === "/") {
                output.push("/");
                break;
              }
            }
          } else if (len === 3) {
            if (input === "/..") {
              if (output.length !== 0) {
                output.pop();
              }
              output.push("/");
              break;
            }
          }
          if (input[0] === ".") {
            if (input[1] === ".") {
              if (input[2] === "/") {
                input = input.slice(3);
                continue;
              }
            } else if (input[1] === "/") {
              input = input.slice(2);
              continue;
            }
          } else if (input[0] === "/") {
            if (input[1] === ".") {
              if (input[2] === "/") {
                input = input.slice(2);
                continue;
              } else if (input[2] === ".") {
                if (input[3] === "/") {
                  input = input.slice(3);
                  if (output.length !== 0) {
                    output.pop();
                  }
                  continue;
                }
              }
            }
          }
          if ((nextSlash = input.indexOf("/", 1)) === -1) {
            output.push(input);
            break;
          } else {
            output.push(input.slice(0, nextSlash));
            input = input.slice(nextSlash);
          }
        }
        return output.join("");
      }
      function removeDotSegmentsRelative(path) {
        if (path === "" || path[0] === "/") {
          return removeDotSegments(path);
        }
        const segments = path.split("/");
        const last = segments.length - 1;
        const output = [];
        let trailingDirectory = false;
        for (let i = 0; i <= last; i++) {
          const segment = segments[i];
          if (segment === "." || segment === "..") {
            if (segment === "..") {
              if (output.length !== 0 && output[output.length - 1] !== "..") {
                output.pop();
              } else {
                output.push("..");
              }
            }
            trailingDirectory = i === last;
          } else {
            output.push(segment);
          }
        }
        if (trailingDirectory && output[output.length - 1] !== "..") {
          output.push("");
        }
        if (output.length === 0 || output[0] === "" || output[0].includes(":")) {
          output.unshift(".");
        }
        return output.join("/");
      }
      var HOST_DELIMS = { "@": "%40", "/": "%2F", "?": "%3F", "#": "%23", ":": "%3A" };
      var HOST_DELIM_RE = /[@/?#:]/g;
      var HOST_DELIM_NO_COLON_RE = /[@/?#]/g;
      function reescapeHostDelimiters(host, isIP) {
        const re = isIP ? HOST_DELIM_NO_COLON_RE : HOST_DELIM_RE;
        re.lastIndex = 0;
        return host.replace(re, (ch) => HOST_DELIMS[ch]);
      }
      function normalizePercentEncoding(input, decodeUnreserved = false) {
        if (input.indexOf("%") === -1) {
          return input;
        }
        let output = "";
        for (let i = 0; i < input.length; i++) {
          if (input[i] === "%" && i + 2 < input.length) {
            const hex2 = input.slice(i + 1, i + 3);
            if (isHexPair(hex2)) {
              const normalizedHex = hex2.toUpperCase();
              const decoded = String.fromCharCode(parseInt(normalizedHex, 16));
              if (decodeUnreserved && isUnreserved(decoded)) {
                output += decoded;
              } else {
                output += "%" + normalizedHex;
              }
              i += 2;
              continue;
            }
          }
          output += input[i];
        }
        return output;
      }
      function normalizePathEncoding(input) {
        let output = "";
        for (let i = 0; i < input.length; i++) {
          const ch = input[i];
          if (ch === "%" && i + 2 < input.length) {
            const hex2 = input.slice(i + 1, i + 3);
            if (isHexPair(hex2)) {
              const normalizedHex = hex2.toUpperCase();
              const decoded = String.fromCharCode(parseInt(normalizedHex, 16));
              if (decoded !== "." && isUnreserved(decoded)) {
                output += decoded;
              } else {
                output += "%" + normalizedHex;
              }
              i += 2;
              continue;
            }
          }
          if (isPathCharacter(ch)) {
            output += ch;
          } else {
            const code = input.charCodeAt(i);
            if (code < 128) {
              output += isEscapeSafe(code) ? ch : BYTE_HEX[code];
            } else if (code < 55296 || code > 57343) {
              output += percentEncodeNonAscii(code);
            } else if (code <= 56319 && i + 1 < input.length) {
              const low = input.charCodeAt(i + 1);
              if (low >= 56320 && low <= 57343) {
                output += percentEncodeNonAscii(65536 + (code - 55296 << 10) + (low - 56320));
                i++;
              } else {
                output += percentEncodeNonAscii(65533);
              }
            } else {
              output += percentEncodeNonAscii(65533);
            }
          }
        }
        return output;
      }
      function serializePathEncoding(input, pathNoScheme = false) {
        let output = "";
        let firstSegment = pathNoScheme && input[0] !== "/";
        for (let i = 0; i < input.length; i++) {
          const ch = input[i];
          if (ch === "%" && i + 2 < input.length) {
            const hex2 = input.slice(i + 1, i + 3);
            if (isHexPair(hex2)) {
              output += "%" + hex2.toUpperCase();
              i += 2;
              continue;
            }
          }
          if (ch === "/") {
            firstSegment = false;
          }
          if (isPathCharacter(ch) && (ch !== ":" || !firstSegment)) {
            output += ch;
          } else {
            const code = input.charCodeAt(i);
            if (code < 128) {
              output += BYTE_HEX[code];
            } else if (code < 55296 || code > 57343) {
              output += percentEncodeNonAscii(code);
            } else if (code <= 56319 && i + 1 < input.length) {
              const low = input.charCodeAt(i + 1);
              if (low >= 56320 && low <= 57343) {
                output += percentEncodeNonAscii(65536 + (code - 55296 << 10) + (low - 56320));
                i++;
              } else {
                output += percentEncodeNonAscii(65533);
              }
            } else {
              output += percentEncodeNonAscii(65533);
            }
          }
        }
        return output;
      }
      function encodeComponent(input, isAllowed) {
        let output = "";
        for (let i = 0; i < input.length; i++) {
          const ch = input[i];
          if (ch === "%" && i + 2 < input.length) {
            const hex2 = input.slice(i + 1, i + 3);
            if (isHexPair(hex2)) {
              output += "%" + hex2.toUpperCase();
              i += 2;
              continue;
            }
          }
          if (isAllowed(ch)) {
            output += ch;
          } else {
            const code = input.charCodeAt(i);
            if (code < 128) {
              output += BYTE_HEX[code];
            } else if (code < 55296 || code > 57343) {
              output += percentEncodeNonAscii(code);
            } else if (code <= 56319 && i + 1 < input.length) {
              const low = input.charCodeAt(i + 1);
              if (low >= 56320 && low <= 57343) {
                output += percentEncodeNonAscii(65536 + (code - 55296 << 10) + (low - 56320));
                i++;
              } else {
                output += percentEncodeNonAscii(65533);
              }
            } else {
              output += percentEncodeNonAscii(65533);
            }
          }
        }
        return output;
      }
      function encodeUserinfo(input) {
        return encodeComponent(input, isUserinfoCharacter);
      }
      function encodeQuery(input) {
        return encodeComponent(input, isQueryFragmentCharacter);
      }
      function encodeFragment(input) {
        return encodeComponent(input, isQueryFragmentCharacter);
      }
      function isEscapeSafe(cp) {
        return cp >= 48 && cp <= 57 || cp >= 65 && cp <= 90 || cp >= 97 && cp <= 122 || cp === 42 || cp === 43 || cp === 45 || cp === 46 || cp === 47 || cp === 64 || cp === 95;
      }
      function normalizeQueryFragmentEncoding(input) {
        let output = "";
        for (let i = 0; i < input.length; i++) {
          const ch = input[i];
          if (ch === "%" && i + 2 < input.length) {
            const hex2 = input.slice(i + 1, i + 3);
            if (isHexPair(hex2)) {
              const normalizedHex = hex2.toUpperCase();
              const decoded = String.fromCharCode(parseInt(normalizedHex, 16));
              if (isUnreserved(decoded)) {
                output += decoded;
              } else {
                output += "%" + normalizedHex;
              }
              i += 2;
              continue;
            }
          }
          if (isQueryFragmentCharacter(ch)) {
            output += ch;
          } else {
            const code = input.charCodeAt(i);
            if (code < 128) {
              output += isEscapeSafe(code) ? ch : BYTE_HEX[code];
            } else if (code < 55296 || code > 57343) {
              output += percentEncodeNonAscii(code);
            } else if (code <= 56319 && i + 1 < input.length) {
              const low = input.charCodeAt(i + 1);
              if (low >= 56320 && low <= 57343) {
                output += percentEncodeNonAscii(65536 + (code - 55296 << 10) + (low - 56320));
                i++;
              } else {
                output += percentEncodeNonAscii(65533);
              }
            } else {
              output += percentEncodeNonAscii(65533);
            }
          }
        }
        return output;
      }
      function escapePreservingEscapes(input) {
        let output = "";
        for (let i = 0; i < input.length; i++) {
          if (input[i] === "%" && i + 2 < input.length) {
            const hex2 = input.slice(i + 1, i + 3);
            if (isHexPair(hex2)) {
              output += "%" + hex2.toUpperCase();
              i += 2;
              continue;
            }
          }
          output += escape(input[i]);
        }
        return output;
      }
      function recomposeAuthority(component) {
        const uriTokens = [];
        if (component.userinfo !== void 0) {
          uriTokens.push(encodeUserinfo(component.userinfo));
          uriTokens.push("@");
        }
        if (component.host !== void 0) {
          let host = component.host;
          if (!isIPv4(host)) {
            let ipV6res = normalizeIPv6(host);
            if (ipV6res.isIPV6 !== true && ipV6res.isIPVFuture !== true) {
              host = normalizePercentEncoding(host, true);
              ipV6res = normalizeIPv6(host);
            }
            if (ipV6res.isIPV6 === true || ipV6res.isIPVFuture === true) {
              host = `[${ipV6res.escapedHost}]`;
            } else {
              host = reescapeHostDelimiters(host, false);
            }
          }
          uriTokens.push(host);
        }
        if (typeof component.port === "number" || typeof component.port === "string") {
          const port = String(component.port);
          if (!isPort(port)) {
            throw new TypeError("URI port is malformed.");
          }
          uriTokens.push(":");
          uriTokens.push(port);
        }
        return uriTokens.length ? uriTokens.join("") : void 0;
      }
      module.exports = {
        nonSimpleDomain,
        recomposeAuthority,
        reescapeHostDelimiters,
        normalizePercentEncoding,
        normalizePathEncoding,
        serializePathEncoding,
        normalizeQueryFragmentEncoding,
        encodeUserinfo,
        encodeQuery,
        encodeFragment,
        escapePreservingEscapes,
        removeDotSegments,
        removeDotSegmentsRelative,
        isIPv4,
        isUUID,
        normalizeIPv6,
        stringArrayToHexStripped
      };
    }
  });

  // node_modules/fast-uri/lib/schemes.js
  var require_schemes = __commonJS({
    "node_modules/fast-uri/lib/schemes.js"(exports, module) {
      "use strict";
      var { isUUID } = require_utils();
      var URN_REG = /^([\da-z][\d\-a-z]{0,31}):((?:[\w!$'()*+,\-./:;=@]|%[\da-f]{2})+)$/iu;
      var supportedSchemeNames = (
        /** @type {const} */
        [
          "http",
          "https",
          "ws",
          "wss",
          "urn",
          "urn:uuid"
        ]
      );
      function isValidSchemeName(name) {
        return supportedSchemeNames.indexOf(
          /** @type {*} */
          name
        ) !== -1;
      }
      function wsIsSecure(wsComponent) {
        if (wsComponent.secure === true) {
          return true;
        } else if (wsComponent.secure === false) {
          return false;
        } else if (wsComponent.scheme) {
          return wsComponent.scheme.length === 3 && (wsComponent.scheme[0] === "w" || wsComponent.scheme[0] === "W") && (wsComponent.scheme[1] === "s" || wsComponent.scheme[1] === "S") && (wsComponent.scheme[2] === "s" || wsComponent.scheme[2] === "S");
        } else {
          return false;
        }
      }
      function httpParse(component) {
        if (!component.host) {
          component.error = component.error || "HTTP URIs must have a host.";
        }
        return component;
      }
      function httpSerialize(component) {
        const secure = String(component.scheme).toLowerCase() === "https";
        if (component.port === (secure ? 443 : 80) || component.port === "") {
          component.port = void 0;
        }
        if (!component.path) {
          component.path = "/";
        }
        return component;
      }
      function wsParse(wsComponent) {
        wsComponent.secure = wsIsSecure(wsComponent);
        wsComponent.resourceName = (wsComponent.path || "/") + (wsComponent.query ? "?" + wsComponent.query : "");
        wsComponent.path = void 0;
        wsComponent.query = void 0;
        return wsComponent;
      }
      function wsSerialize(wsComponent) {
        if (wsComponent.port === (wsIsSecure(wsComponent) ? 443 : 80) || wsComponent.port === "") {
          wsComponent.port = void 0;
        }
        if (typeof wsComponent.secure === "boolean") {
          wsComponent.scheme = wsComponent.secure ? "wss" : "ws";
          wsComponent.secure = void 0;
        }
        if (wsComponent.resourceName) {
          const queryIndex = wsComponent.resourceName.indexOf("?");
          const path = queryIndex === -1 ? wsComponent.resourceName : wsComponent.resourceName.slice(0, queryIndex);
          wsComponent.path = path && path !== "/" ? path : void 0;
          wsComponent.query = queryIndex === -1 ? void 0 : wsComponent.resourceName.slice(queryIndex + 1);
          wsComponent.resourceName = void 0;
        }
        wsComponent.fragment = void 0;
        return wsComponent;
      }
      function urnParse(urnComponent, options) {
        if (!urnComponent.path) {
          urnComponent.error = "URN can not be parsed";
          return urnComponent;
        }
        const matches = urnComponent.path.match(URN_REG);
        if (matches && matches[0] === urnComponent.path) {
          const scheme = options.scheme || urnComponent.scheme || "urn";
          urnComponent.nid = matches[1].toLowerCase();
          urnComponent.nss = matches[2];
          const urnScheme = `${scheme}:${options.nid || urnComponent.nid}`;
          const schemeHandler = getSchemeHandler(urnScheme);
          urnComponent.path = void 0;
          if (schemeHandler) {
            urnComponent = schemeHandler.parse(urnComponent, options);
          }
        } else {
          urnComponent.error = urnComponent.error || "URN can not be parsed.";
        }
        return urnComponent;
      }
      function urnSerialize(urnComponent, options) {
        if (urnComponent.nid === void 0) {
          throw new Error("URN without nid cannot be serialized");
        }
        const scheme = options.scheme || urnComponent.scheme || "urn";
        const nid = urnComponent.nid.toLowerCase();
        const urnScheme = `${scheme}:${options.nid || nid}`;
        const schemeHandler = getSchemeHandler(urnScheme);
        if (schemeHandler) {
          urnComponent = schemeHandler.serialize(urnComponent, options);
        }
        const uriComponent = urnComponent;
        const nss = urnComponent.nss;
        uriComponent.path = `${nid || options.nid}:${nss}`;
        options.skipEscape = true;
        return uriComponent;
      }
      function urnuuidParse(urnComponent, options) {
        const uuidComponent = urnComponent;
        uuidComponent.uuid = uuidComponent.nss;
        uuidComponent.nss = void 0;
        if (!options.tolerant && (!uuidComponent.uuid || !isUUID(uuidComponent.uuid))) {
          uuidComponent.error = uuidComponent.error || "UUID is not valid.";
        }
        return uuidComponent;
      }
      function urnuuidSerialize(uuidComponent) {
        const urnComponent = uuidComponent;
        urnComponent.nss = (uuidComponent.uuid || "").toLowerCase();
        return urnComponent;
      }
      var http = (
        /** @type {SchemeHandler} */
        {
          scheme: "http",
          domainHost: true,
          parse: httpParse,
          serialize: httpSerialize
        }
      );
      var https = (
        /** @type {SchemeHandler} */
        {
          scheme: "https",
          domainHost: http.domainHost,
          parse: httpParse,
          serialize: httpSerialize
        }
      );
      var ws = (
        /** @type {SchemeHandler} */
        {
          scheme: "ws",
          domainHost: true,
          parse: wsParse,
          serialize: wsSerialize
        }
      );
      var wss = (
        /** @type {SchemeHandler} */
        {
          scheme: "wss",
          domainHost: ws.domainHost,
          parse: ws.parse,
          serialize: ws.serialize
        }
      );
      var urn = (
        /** @type {SchemeHandler} */
        {
          scheme: "urn",
          parse: urnParse,
          serialize: urnSerialize,
          skipNormalize: true
        }
      );
      var urnuuid = (
        /** @type {SchemeHandler} */
        {
          scheme: "urn:uuid",
          parse: urnuuidParse,
          serialize: urnuuidSerialize,
          skipNormalize: true
        }
      );
      var SCHEMES = (
        /** @type {Record<SchemeName, SchemeHandler>} */
        {
          http,
          https,
          ws,
          wss,
          urn,
          "urn:uuid": urnuuid
        }
      );
      Object.setPrototypeOf(SCHEMES, null);
      function getSchemeHandler(scheme) {
        return scheme && (SCHEMES[
          /** @type {SchemeName} */
          scheme
        ] || SCHEMES[
          /** @type {SchemeName} */
          scheme.toLowerCase()
        ]) || void 0;
      }
      module.exports = {
        wsIsSecure,
        SCHEMES,
        isValidSchemeName,
        getSchemeHandler
      };
    }
  });

  // node_modules/fast-uri/index.js
  var require_fast_uri = __commonJS({
    "node_modules/fast-uri/index.js"(exports, module) {
      "use strict";
      var { normalizeIPv6, removeDotSegments, removeDotSegmentsRelative, recomposeAuthority, normalizePercentEncoding, normalizePathEncoding, serializePathEncoding, normalizeQueryFragmentEncoding, encodeQuery, encodeFragment, reescapeHostDelimiters, isIPv4, nonSimpleDomain } = require_utils();
      var { SCHEMES, getSchemeHandler } = require_schemes();
      var VALID_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/u;
      var MALFORMED_SCHEME_ERROR = "URI scheme is malformed.";
      var MALFORMED_HOST_ERROR = "URI host is malformed.";
      var FORBIDDEN_DOMAIN_HOST_CHARACTER = /[\0-\x20"#/:<>?@[\\\]^`{|}\x7F]/u;
      function validateScheme(scheme) {
        const stringScheme = String(scheme);
        if (!VALID_SCHEME.test(stringScheme)) {
          throw new TypeError(MALFORMED_SCHEME_ERROR);
        }
        return stringScheme;
      }
      function normalize(uri, options) {
        if (typeof uri === "string") {
          uri = /** @type {T} */
          normalizeString(uri, options);
        } else if (typeof uri === "object") {
          uri = /** @type {T} */
          parse(serialize(uri, options), options);
        }
        return uri;
      }
      function resolve(baseURI, relativeURI, options) {
        const schemelessOptions = options ? Object.assign({ scheme: "null" }, options) : { scheme: "null" };
        const {
          parsed: baseParsed,
          malformedAuthorityOrPort: baseMalformed,
          malformedPercentEncoding: baseMalformedPercentEncoding,
          malformedSchemeSpecific: baseMalformedSchemeSpecific,
          malformedHost: baseMalformedHost,
          malformedScheme: baseMalformedScheme
        } = parseWithStatus(baseURI, schemelessOptions);
        const {
          parsed: relativeParsed,
          malformedAuthorityOrPort: relativeMalformed,
          malformedPercentEncoding: relativeMalformedPercentEncoding,
          malformedSchemeSpecific: relativeMalformedSchemeSpecific,
          malformedHost: relativeMalformedHost,
          malformedScheme: relativeMalformedScheme
        } = parseWithStatus(relativeURI, schemelessOptions);
        if (baseMalformed || relativeMalformed || baseMalformedPercentEncoding || relativeMalformedPercentEncoding || baseMalformedSchemeSpecific || relativeMalformedSchemeSpecific || baseMalformedHost || relativeMalformedHost || baseMalformedScheme || relativeMalformedScheme) {
          throw new Error(baseParsed.error || relativeParsed.error || "URI is malformed.");
        }
        const resolved = resolveComponent(baseParsed, relativeParsed, schemelessOptions, true);
        const resolvedSchemeHandler = getSchemeHandler(options && options.scheme || resolved.scheme);
        const resolvedHost = resolved.host;
        const resolvedHostIsIP = resolvedHost !== void 0 && resolvedHost !== "" && (isIPv4(resolvedHost) || normalizeIPv6(resolvedHost).isIPV6);
        if (hasForbiddenDomainHost(resolved, options || {}, resolvedSchemeHandler, resolvedHostIsIP)) {
          throw new Error(MALFORMED_HOST_ERROR);
        }
        canonicalizeHost(resolved, options || {}, resolvedSchemeHandler, resolvedHostIsIP);
        const encodedASCIIHost = resolvedHost && resolvedHost.indexOf("%") !== -1 && !/\P{ASCII}/u.test(resolvedHost);
        if (resolved.error && !encodedASCIIHost) {
          throw new Error(resolved.error);
        }
        schemelessOptions.skipEscape = true;
        return serialize(resolved, schemelessOptions);
      }
      function resolveComponent(base, relative, options, skipNormalization) {
        const target = {};
        if (!skipNormalization) {
          base = parse(serialize(base, options), options);
          relative = parse(serialize(relative, options), options);
        }
        options = options || {};
        if (!options.tolerant && relative.scheme) {
          target.scheme = relative.scheme;
          target.userinfo = relative.userinfo;
          target.host = relative.host;
          target.port = relative.port;
          target.path = removeDotSegments(relative.path || "");
          target.query = relative.query;
        } else {
          if (relative.userinfo !== void 0 || relative.host !== void 0 || relative.port !== void 0) {
            target.userinfo = relative.userinfo;
            target.host = relative.host;
            target.port = relative.port;
            target.path = removeDotSegments(relative.path || "");
            target.query = relative.query;
          } else {
            if (!relative.path) {
              target.path = base.path;
              if (relative.query !== void 0) {
                target.query = relative.query;
              } else {
                target.query = base.query;
              }
            } else {
              if (relative.path[0] === "/") {
                target.path = removeDotSegments(relative.path);
              } else {
                const baseHasAuthority = base.userinfo !== void 0 || base.host !== void 0 || base.port !== void 0;
                if (baseHasAuthority && !base.path) {
                  target.path = "/" + relative.path;
                } else if (!base.path) {
                  target.path = relative.path;
                } else {
                  target.path = base.path.slice(0, base.path.lastIndexOf("/") + 1) + relative.path;
                }
                target.path = base.scheme === void 0 && !baseHasAuthority && target.path[0] !== "/" ? removeDotSegmentsRelative(target.path) : removeDotSegments(target.path);
              }
              target.query = relative.query;
            }
            target.userinfo = base.userinfo;
            target.host = base.host;
            target.port = base.port;
          }
          target.scheme = base.scheme;
        }
        target.fragment = relative.fragment;
        return target;
      }
      function equal(uriA, uriB, options) {
        const normalizedA = normalizeComparableURI(uriA, options);
        const normalizedB = normalizeComparableURI(uriB, options);
        return normalizedA !== void 0 && normalizedB !== void 0 && normalizedA === normalizedB;
      }
      function serialize(cmpts, opts) {
        const component = {
          host: cmpts.host,
          scheme: cmpts.scheme,
          userinfo: cmpts.userinfo,
          port: cmpts.port,
          path: cmpts.path,
          query: cmpts.query,
          nid: cmpts.nid,
          nss: cmpts.nss,
          uuid: cmpts.uuid,
          fragment: cmpts.fragment,
          reference: cmpts.reference,
          resourceName: cmpts.resourceName,
          secure: cmpts.secure,
          error: ""
        };
        const options = Object.assign({}, opts);
        const uriTokens = [];
        if (component.scheme) {
          component.scheme = validateScheme(component.scheme);
        }
        const schemeHandler = getSchemeHandler(options.scheme || component.scheme);
        if (schemeHandler && schemeHandler.serialize) schemeHandler.serialize(component, options);
        const hasAuthority = component.userinfo !== void 0 || component.host !== void 0 || component.port !== void 0;
        const schemelessReference = (component.scheme === void 0 || options.reference === "suffix") && !hasAuthority;
        const pathNoScheme = !options.skipEscape && schemelessReference;
        if (component.path !== void 0) {
          if (!options.skipEscape) {
            component.path = serializePathEncoding(component.path, pathNoScheme);
          } else {
            component.path = normalizePercentEncoding(component.path);
          }
        }
        if (options.reference !== "suffix" && component.scheme) {
          component.scheme = validateScheme(component.scheme);
          uriTokens.push(component.scheme, ":");
        }
        const authority = recomposeAuthority(component);
        if (authority !== void 0) {
          if (options.reference !== "suffix") {
            uriTokens.push("//");
          }
          uriTokens.push(authority);
          if (component.path && component.path[0] !== "/") {
            uriTokens.push("/");
          }
        }
        if (component.path !== void 0) {
          let s = component.path;
          if (!options.absolutePath && (!schemeHandler || !schemeHandler.absolutePath)) {
            s = schemelessReference && s[0] !== "/" ? removeDotSegmentsRelative(s) : removeDotSegments(s);
          }
          if (schemelessReference) {
            s = serializePathEncoding(s, true);
          }
          if (authority === void 0 && s[0] === "/" && s[1] === "/") {
            s = "/%2F" + s.slice(2);
          }
          uriTokens.push(s);
        }
        if (component.query !== void 0) {
          uriTokens.push("?", encodeQuery(component.query));
        }
        if (component.fragment !== void 0) {
          uriTokens.push("#", encodeFragment(component.fragment));
        }
        return uriTokens.join("");
      }
      var URI_PARSE = /^(?:([^#/:?]+):)?(?:\/\/((?:([^#/?@]*)@)?(\[[^#/?\]]+\]|[^#/:?]*)(?::(\d*))?))?([^#?]*)(?:\?([^#]*))?(?:#((?:.|[\n\r])*))?/u;
      var AUTHORITY_PREFIX = /^(?:[^#/:?]+:)?\/\/([^/?#]*)/;
      var AUTHORITY_INTRODUCER_REGION = /^(?:[^#/:?]+:)?([/\\\t\n\r]*)/;
      function getParseError(parsed, matches) {
        if (matches[2] !== void 0 && parsed.path && parsed.path[0] !== "/") {
          return 'URI path must start with "/" when authority is present.';
        }
        if (typeof parsed.port === "number" && (parsed.port < 0 || parsed.port > 65535)) {
          return "URI port is malformed.";
        }
        return void 0;
      }
      function hasMalformedPercentEncoding(component) {
        if (component === void 0) return false;
        let percent = component.indexOf("%");
        while (percent !== -1) {
          if (percent + 2 >= component.length || !/^[\da-f]{2}$/iu.test(component.slice(percent + 1, percent + 3))) {
            return true;
          }
          percent = component.indexOf("%", percent + 3);
        }
        return false;
      }
      function isIPLiteral(host) {
        return host[0] === "[" && host[host.length - 1] === "]";
      }
      function hasMalformedComponentPercentEncoding(matches) {
        const host = matches[4];
        return hasMalformedPercentEncoding(matches[3]) || host !== void 0 && !isIPLiteral(host) && hasMalformedPercentEncoding(host) || hasMalformedPercentEncoding(matches[6]) || hasMalformedPercentEncoding(matches[7]) || hasMalformedPercentEncoding(matches[8]);
      }
      function canonicalizeHost(parsed, options, schemeHandler, isIP) {
        if (hasForbiddenDomainHost(parsed, options, schemeHandler, isIP)) {
          parsed.error = parsed.error || MALFORMED_HOST_ERROR;
          return true;
        }
        if (!options.unicodeSupport && (!schemeHandler || !schemeHandler.unicodeSupport) && parsed.host && !isIPLiteral(parsed.host) && (options.domainHost || schemeHandler && schemeHandler.domainHost) && isIP === false && nonSimpleDomain(parsed.host)) {
          let url;
          try {
            url = new URL("http://" + parsed.host);
          } catch (e) {
            parsed.error = parsed.error || "Host's domain name can not be converted to ASCII: " + e;
            return true;
          }
          if (!isHostOnlyURL(url)) {
            parsed.error = parsed.error || MALFORMED_HOST_ERROR;
            return true;
          }
          parsed.host = url.hostname;
        }
        return false;
      }
      function hasForbiddenDomainHost(parsed, options, schemeHandler, isIP) {
        return Boolean(
          parsed.host && isIP === false && !isIPLiteral(parsed.host) && (options.domainHost || schemeHandler && schemeHandler.domainHost) && FORBIDDEN_DOMAIN_HOST_CHARACTER.test(parsed.host)
        );
      }
      function isHostOnlyURL(url) {
        return url.username === "" && url.password === "" && url.port === "" && url.pathname === "/" && url.search === "" && url.hash === "" && url.hostname !== "";
      }
      function parseWithStatus(uri, opts) {
        const options = Object.assign({}, opts);
        const parsed = {
          scheme: void 0,
          userinfo: void 0,
          host: "",
          port: void 0,
          path: "",
          query: void 0,
          fragment: void 0
        };
        let malformedAuthorityOrPort = false;
        let malformedPercentEncoding = false;
        let malformedSchemeSpecific = false;
        let malformedHost = false;
        let malformedIPLiteral = false;
        let malformedScheme = false;
        let isIP = false;
        if (options.reference === "suffix") {
          if (options.scheme) {
            uri = options.scheme + ":" + uri;
          } else {
            uri = "//" + uri;
          }
        }
        const authorityMatch = uri.match(AUTHORITY_PREFIX);
        if (authorityMatch !== null && authorityMatch[1].indexOf("\\") !== -1) {
          parsed.error = "URI authority must not contain a literal backslash.";
          malformedAuthorityOrPort = true;
        }
        const introducerMatch = uri.match(AUTHORITY_INTRODUCER_REGION);
        if (introducerMatch !== null) {
          const region = introducerMatch[1];
          const normalizedRegion = region.replace(/[\t\n\r]/g, "");
          if (normalizedRegion.length >= 2) {
            if (normalizedRegion.slice(0, 2) !== "//") {
              parsed.error = parsed.error || "URI authority must not contain a literal backslash.";
              malformedAuthorityOrPort = true;
            } else if (region.length !== normalizedRegion.length) {
              parsed.error = parsed.error || "URI authority introducer must not contain whitespace.";
              malformedAuthorityOrPort = true;
            }
          }
        }
        const matches = uri.match(URI_PARSE);
        if (matches) {
          parsed.scheme = matches[1];
          parsed.userinfo = matches[3];
          parsed.host = matches[4];
          parsed.port = parseInt(matches[5], 10);
          parsed.path = matches[6] || "";
          parsed.query = matches[7];
          parsed.fragment = matches[8];
          if (parsed.scheme !== void 0) {
            if (VALID_SCHEME.test(parsed.scheme)) {
              parsed.scheme = parsed.scheme.toLowerCase();
            } else {
              parsed.error = parsed.error || MALFORMED_SCHEME_ERROR;
              malformedScheme = true;
            }
          }
          malformedPercentEncoding = hasMalformedComponentPercentEncoding(matches);
          if (malformedPercentEncoding) {
            parsed.error = parsed.error || "URI contains malformed percent-encoding.";
          }
          if (isNaN(parsed.port)) {
            parsed.port = matches[5];
          }
          const parseError = getParseError(parsed, matches);
          if (parseError !== void 0) {
            parsed.error = parsed.error || parseError;
            malformedAuthorityOrPort = true;
          }
          if (parsed.host) {
            const ipv4result = isIPv4(parsed.host);
            if (ipv4result === false) {
              const bracketedIPLiteral = isIPLiteral(parsed.host);
              const hasIPLiteralBracket = parsed.host.indexOf("[") !== -1 || parsed.host.indexOf("]") !== -1;
              const ipv6result = normalizeIPv6(parsed.host);
              isIP = ipv6result.isIPV6 || ipv6result.isIPVFuture === true;
              malformedIPLiteral = hasIPLiteralBracket && (!bracketedIPLiteral || ipv6result.error === true);
              parsed.host = isIP ? ipv6result.host : ipv6result.host.toLowerCase();
              if (malformedIPLiteral) {
                parsed.error = parsed.error || MALFORMED_HOST_ERROR;
                malformedAuthorityOrPort = true;
              }
            } else {
              isIP = true;
            }
          }
          if (parsed.scheme === void 0 && parsed.userinfo === void 0 && parsed.host === void 0 && parsed.port === void 0 && parsed.query === void 0 && !parsed.path) {
            parsed.reference = "same-document";
          } else if (parsed.scheme === void 0) {
            parsed.reference = "relative";
          } else if (parsed.fragment === void 0) {
            parsed.reference = "absolute";
          } else {
            parsed.reference = "uri";
          }
          if (options.reference && options.reference !== "suffix" && options.reference !== parsed.reference) {
            parsed.error = parsed.error || "URI is not a " + options.reference + " reference.";
          }
          const schemeHandler = getSchemeHandler(options.scheme || parsed.scheme);
          if (!malformedIPLiteral) {
            malformedHost = canonicalizeHost(parsed, options, schemeHandler, isIP);
          }
          if (uri.indexOf("%") !== -1 && parsed.host !== void 0 && !malformedIPLiteral) {
            let host = isIP ? parsed.host : normalizePercentEncoding(parsed.host, true);
            if (!isIP) {
              host = normalizePercentEncoding(host.toLowerCase());
            }
            parsed.host = isIP || options.scheme !== "null" ? reescapeHostDelimiters(host, isIP) : host;
          }
          if (!schemeHandler || schemeHandler && !schemeHandler.skipNormalize) {
            if (parsed.path) {
              parsed.path = normalizePathEncoding(parsed.path);
            }
            if (parsed.query) {
              parsed.query = normalizeQueryFragmentEncoding(parsed.query);
            }
            if (parsed.fragment) {
              parsed.fragment = normalizeQueryFragmentEncoding(parsed.fragment);
            }
          }
          if (schemeHandler && schemeHandler.parse) {
            schemeHandler.parse(parsed, options);
            if (schemeHandler === SCHEMES.urn && parsed.nid === void 0) {
              malformedSchemeSpecific = true;
            }
          }
        } else {
          parsed.error = parsed.error || "URI can not be parsed.";
        }
        return { parsed, malformedAuthorityOrPort, malformedPercentEncoding, malformedSchemeSpecific, malformedHost, malformedScheme };
      }
      function parse(uri, opts) {
        return parseWithStatus(uri, opts).parsed;
      }
      function normalizeString(uri, opts) {
        return normalizeStringWithStatus(uri, opts).normalized;
      }
      function normalizeStringWithStatus(uri, opts) {
        const { parsed, malformedAuthorityOrPort, malformedPercentEncoding, malformedSchemeSpecific, malformedHost, malformedScheme } = parseWithStatus(uri, opts);
        return {
          normalized: malformedAuthorityOrPort || malformedPercentEncoding || malformedSchemeSpecific || malformedHost || malformedScheme ? uri : serialize(parsed, opts),
          malformedAuthorityOrPort,
          malformedPercentEncoding,
          malformedSchemeSpecific,
          malformedHost,
          malformedScheme
        };
      }
      function normalizeComparableURI(uri, opts) {
        if (typeof uri !== "string" && typeof uri !== "object") {
          return void 0;
        }
        let value;
        try {
          value = typeof uri === "string" ? uri : serialize(uri, opts);
        } catch {
          return void 0;
        }
        const { normalized: normalized3, malformedAuthorityOrPort, malformedPercentEncoding, malformedSchemeSpecific, malformedHost, malformedScheme } = normalizeStringWithStatus(value, opts);
        return malformedAuthorityOrPort || malformedPercentEncoding || malformedSchemeSpecific || malformedHost || malformedScheme ? void 0 : normalized3;
      }
      var fastUri = {
        SCHEMES,
        normalize,
        resolve,
        resolveComponent,
        equal,
        serialize,
        parse
      };
      module.exports = fastUri;
      module.exports.default = fastUri;
      module.exports.fastUri = fastUri;
    }
  });

  // node_modules/ajv/dist/runtime/uri.js
  var require_uri = __commonJS({
    "node_modules/ajv/dist/runtime/uri.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var uri = require_fast_uri();
      uri.code = 'require("ajv/dist/runtime/uri").default';
      exports.default = uri;
    }
  });

  // node_modules/ajv/dist/core.js
  var require_core = __commonJS({
    "node_modules/ajv/dist/core.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      exports.CodeGen = exports.Name = exports.nil = exports.stringify = exports.str = exports._ = exports.KeywordCxt = void 0;
      var validate_1 = require_validate();
      Object.defineProperty(exports, "KeywordCxt", { enumerable: true, get: function() {
        return validate_1.KeywordCxt;
      } });
      var codegen_1 = require_codegen();
      Object.defineProperty(exports, "_", { enumerable: true, get: function() {
        return codegen_1._;
      } });
      Object.defineProperty(exports, "str", { enumerable: true, get: function() {
        return codegen_1.str;
      } });
      Object.defineProperty(exports, "stringify", { enumerable: true, get: function() {
        return codegen_1.stringify;
      } });
      Object.defineProperty(exports, "nil", { enumerable: true, get: function() {
        return codegen_1.nil;
      } });
      Object.defineProperty(exports, "Name", { enumerable: true, get: function() {
        return codegen_1.Name;
      } });
      Object.defineProperty(exports, "CodeGen", { enumerable: true, get: function() {
        return codegen_1.CodeGen;
      } });
      var validation_error_1 = require_validation_error();
      var ref_error_1 = require_ref_error();
      var rules_1 = require_rules();
      var compile_1 = require_compile();
      var codegen_2 = require_codegen();
      var resolve_1 = require_resolve();
      var dataType_1 = require_dataType();
      var util_1 = require_util();
      var $dataRefSchema = require_data();
      var uri_1 = require_uri();
      var defaultRegExp = (str, flags) => new RegExp(str, flags);
      defaultRegExp.code = "new RegExp";
      var META_IGNORE_OPTIONS = ["removeAdditional", "useDefaults", "coerceTypes"];
      var EXT_SCOPE_NAMES = /* @__PURE__ */ new Set([
        "validate",
        "serialize",
        "parse",
        "wrapper",
        "root",
        "schema",
        "keyword",
        "pattern",
        "formats",
        "validate$data",
        "func",
        "obj",
        "Error"
      ]);
      var removedOptions = {
        errorDataPath: "",
        format: "`validateFormats: false` can be used instead.",
        nullable: '"nullable" keyword is supported by default.',
        jsonPointers: "Deprecated jsPropertySyntax can be used instead.",
        extendRefs: "Deprecated ignoreKeywordsWithRef can be used instead.",
        missingRefs: "Pass empty schema with $id that should be ignored to ajv.addSchema.",
        processCode: "Use option `code: {process: (code, schemaEnv: object) => string}`",
        sourceCode: "Use option `code: {source: true}`",
        strictDefaults: "It is default now, see option `strict`.",
        strictKeywords: "It is default now, see option `strict`.",
        uniqueItems: '"uniqueItems" keyword is always validated.',
        unknownFormats: "Disable strict mode or pass `true` to `ajv.addFormat` (or `formats` option).",
        cache: "Map is used as cache, schema object as key.",
        serialize: "Map is used as cache, schema object as key.",
        ajvErrors: "It is default now."
      };
      var deprecatedOptions = {
        ignoreKeywordsWithRef: "",
        jsPropertySyntax: "",
        unicode: '"minLength"/"maxLength" account for unicode characters by default.'
      };
      var MAX_EXPRESSION = 200;
      function requiredOptions(o) {
        var _a, _b, _c, _d, _e, _f, _g, _h, _j, _k, _l, _m, _o, _p, _q, _r, _s, _t, _u, _v, _w, _x, _y, _z, _0;
        const s = o.strict;
        const _optz = (_a = o.code) === null || _a === void 0 ? void 0 : _a.optimize;
        const optimize = _optz === true || _optz === void 0 ? 1 : _optz || 0;
        const regExp = (_c = (_b = o.code) === null || _b === void 0 ? void 0 : _b.regExp) !== null && _c !== void 0 ? _c : defaultRegExp;
        const uriResolver = (_d = o.uriResolver) !== null && _d !== void 0 ? _d : uri_1.default;
        return {
          strictSchema: (_f = (_e = o.strictSchema) !== null && _e !== void 0 ? _e : s) !== null && _f !== void 0 ? _f : true,
          strictNumbers: (_h = (_g = o.strictNumbers) !== null && _g !== void 0 ? _g : s) !== null && _h !== void 0 ? _h : true,
          strictTypes: (_k = (_j = o.strictTypes) !== null && _j !== void 0 ? _j : s) !== null && _k !== void 0 ? _k : "log",
          strictTuples: (_m = (_l = o.strictTuples) !== null && _l !== void 0 ? _l : s) !== null && _m !== void 0 ? _m : "log",
          strictRequired: (_p = (_o = o.strictRequired) !== null && _o !== void 0 ? _o : s) !== null && _p !== void 0 ? _p : false,
          code: o.code ? { ...o.code, optimize, regExp } : { optimize, regExp },
          loopRequired: (_q = o.loopRequired) !== null && _q !== void 0 ? _q : MAX_EXPRESSION,
          loopEnum: (_r = o.loopEnum) !== null && _r !== void 0 ? _r : MAX_EXPRESSION,
          meta: (_s = o.meta) !== null && _s !== void 0 ? _s : true,
          messages: (_t = o.messages) !== null && _t !== void 0 ? _t : true,
          inlineRefs: (_u = o.inlineRefs) !== null && _u !== void 0 ? _u : true,
          schemaId: (_v = o.schemaId) !== null && _v !== void 0 ? _v : "$id",
          addUsedSchema: (_w = o.addUsedSchema) !== null && _w !== void 0 ? _w : true,
          validateSchema: (_x = o.validateSchema) !== null && _x !== void 0 ? _x : true,
          validateFormats: (_y = o.validateFormats) !== null && _y !== void 0 ? _y : true,
          unicodeRegExp: (_z = o.unicodeRegExp) !== null && _z !== void 0 ? _z : true,
          int32range: (_0 = o.int32range) !== null && _0 !== void 0 ? _0 : true,
          uriResolver
        };
      }
      var Ajv = class {
        constructor(opts = {}) {
          this.schemas = {};
          this.refs = {};
          this.formats = /* @__PURE__ */ Object.create(null);
          this._compilations = /* @__PURE__ */ new Set();
          this._loading = {};
          this._cache = /* @__PURE__ */ new Map();
          opts = this.opts = { ...opts, ...requiredOptions(opts) };
          const { es5, lines } = this.opts.code;
          this.scope = new codegen_2.ValueScope({ scope: {}, prefixes: EXT_SCOPE_NAMES, es5, lines });
          this.logger = getLogger(opts.logger);
          const formatOpt = opts.validateFormats;
          opts.validateFormats = false;
          this.RULES = (0, rules_1.getRules)();
          checkOptions.call(this, removedOptions, opts, "NOT SUPPORTED");
          checkOptions.call(this, deprecatedOptions, opts, "DEPRECATED", "warn");
          this._metaOpts = getMetaSchemaOptions.call(this);
          if (opts.formats)
            addInitialFormats.call(this);
          this._addVocabularies();
          this._addDefaultMetaSchema();
          if (opts.keywords)
            addInitialKeywords.call(this, opts.keywords);
          if (typeof opts.meta == "object")
            this.addMetaSchema(opts.meta);
          addInitialSchemas.call(this);
          opts.validateFormats = formatOpt;
        }
        _addVocabularies() {
          this.addKeyword("$async");
        }
        _addDefaultMetaSchema() {
          const { $data, meta, schemaId } = this.opts;
          let _dataRefSchema = $dataRefSchema;
          if (schemaId === "id") {
            _dataRefSchema = { ...$dataRefSchema };
            _dataRefSchema.id = _dataRefSchema.$id;
            delete _dataRefSchema.$id;
          }
          if (meta && $data)
            this.addMetaSchema(_dataRefSchema, _dataRefSchema[schemaId], false);
        }
        defaultMeta() {
          const { meta, schemaId } = this.opts;
          return this.opts.defaultMeta = typeof meta == "object" ? meta[schemaId] || meta : void 0;
        }
        validate(schemaKeyRef, data) {
          let v;
          if (typeof schemaKeyRef == "string") {
            v = this.getSchema(schemaKeyRef);
            if (!v)
              throw new Error(`no schema with key or ref "${schemaKeyRef}"`);
          } else {
            v = this.compile(schemaKeyRef);
          }
          const valid = v(data);
          if (!("$async" in v))
            this.errors = v.errors;
          return valid;
        }
        compile(schema, _meta) {
          const sch = this._addSchema(schema, _meta);
          return sch.validate || this._compileSchemaEnv(sch);
        }
        compileAsync(schema, meta) {
          if (typeof this.opts.loadSchema != "function") {
            throw new Error("options.loadSchema should be a function");
          }
          const { loadSchema } = this.opts;
          return runCompileAsync.call(this, schema, meta);
          async function runCompileAsync(_schema, _meta) {
            await loadMetaSchema.call(this, _schema.$schema);
            const sch = this._addSchema(_schema, _meta);
            return sch.validate || _compileAsync.call(this, sch);
          }
          async function loadMetaSchema($ref) {
            if ($ref && !this.getSchema($ref)) {
              await runCompileAsync.call(this, { $ref }, true);
            }
          }
          async function _compileAsync(sch) {
            try {
              return this._compileSchemaEnv(sch);
            } catch (e) {
              if (!(e instanceof ref_error_1.default))
                throw e;
              checkLoaded.call(this, e);
              await loadMissingSchema.call(this, e.missingSchema);
              return _compileAsync.call(this, sch);
            }
          }
          function checkLoaded({ missingSchema: ref2, missingRef }) {
            if (this.refs[ref2]) {
              throw new Error(`AnySchema ${ref2} is loaded but ${missingRef} cannot be resolved`);
            }
          }
          async function loadMissingSchema(ref2) {
            const _schema = await _loadSchema.call(this, ref2);
            if (!this.refs[ref2])
              await loadMetaSchema.call(this, _schema.$schema);
            if (!this.refs[ref2])
              this.addSchema(_schema, ref2, meta);
          }
          async function _loadSchema(ref2) {
            const p = this._loading[ref2];
            if (p)
              return p;
            try {
              return await (this._loading[ref2] = loadSchema(ref2));
            } finally {
              delete this._loading[ref2];
            }
          }
        }
        // Adds schema to the instance
        addSchema(schema, key, _meta, _validateSchema = this.opts.validateSchema) {
          if (Array.isArray(schema)) {
            for (const sch of schema)
              this.addSchema(sch, void 0, _meta, _validateSchema);
            return this;
          }
          let id;
          if (typeof schema === "object") {
            const { schemaId } = this.opts;
            id = schema[schemaId];
            if (id !== void 0 && typeof id != "string") {
              throw new Error(`schema ${schemaId} must be string`);
            }
          }
          key = (0, resolve_1.normalizeId)(key || id);
          this._checkUnique(key);
          this.schemas[key] = this._addSchema(schema, _meta, key, _validateSchema, true);
          return this;
        }
        // Add schema that will be used to validate other schemas
        // options in META_IGNORE_OPTIONS are alway set to false
        addMetaSchema(schema, key, _validateSchema = this.opts.validateSchema) {
          this.addSchema(schema, key, true, _validateSchema);
          return this;
        }
        //  Validate schema against its meta-schema
        validateSchema(schema, throwOrLogError) {
          if (typeof schema == "boolean")
            return true;
          let $schema;
          $schema = schema.$schema;
          if ($schema !== void 0 && typeof $schema != "string") {
            throw new Error("$schema must be a string");
          }
          $schema = $schema || this.opts.defaultMeta || this.defaultMeta();
          if (!$schema) {
            this.logger.warn("meta-schema not available");
            this.errors = null;
            return true;
          }
          const valid = this.validate($schema, schema);
          if (!valid && throwOrLogError) {
            const message = "schema is invalid: " + this.errorsText();
            if (this.opts.validateSchema === "log")
              this.logger.error(message);
            else
              throw new Error(message);
          }
          return valid;
        }
        // Get compiled schema by `key` or `ref`.
        // (`key` that was passed to `addSchema` or full schema reference - `schema.$id` or resolved id)
        getSchema(keyRef) {
          let sch;
          while (typeof (sch = getSchEnv.call(this, keyRef)) == "string")
            keyRef = sch;
          if (sch === void 0) {
            const { schemaId } = this.opts;
            const root = new compile_1.SchemaEnv({ schema: {}, schemaId });
            sch = compile_1.resolveSchema.call(this, root, keyRef);
            if (!sch)
              return;
            this.refs[keyRef] = sch;
          }
          return sch.validate || this._compileSchemaEnv(sch);
        }
        // Remove cached schema(s).
        // If no parameter is passed all schemas but meta-schemas are removed.
        // If RegExp is passed all schemas with key/id matching pattern but meta-schemas are removed.
        // Even if schema is referenced by other schemas it still can be removed as other schemas have local references.
        removeSchema(schemaKeyRef) {
          if (schemaKeyRef instanceof RegExp) {
            this._removeAllSchemas(this.schemas, schemaKeyRef);
            this._removeAllSchemas(this.refs, schemaKeyRef);
            return this;
          }
          switch (typeof schemaKeyRef) {
            case "undefined":
              this._removeAllSchemas(this.schemas);
              this._removeAllSchemas(this.refs);
              this._cache.clear();
              return this;
            case "string": {
              const sch = getSchEnv.call(this, schemaKeyRef);
              if (typeof sch == "object")
                this._cache.delete(sch.schema);
              delete this.schemas[schemaKeyRef];
              delete this.refs[schemaKeyRef];
              return this;
            }
            case "object": {
              const cacheKey = schemaKeyRef;
              this._cache.delete(cacheKey);
              let id = schemaKeyRef[this.opts.schemaId];
              if (id) {
                id = (0, resolve_1.normalizeId)(id);
                delete this.schemas[id];
                delete this.refs[id];
              }
              return this;
            }
            default:
              throw new Error("ajv.removeSchema: invalid parameter");
          }
        }
        // add "vocabulary" - a collection of keywords
        addVocabulary(definitions) {
          for (const def of definitions)
            this.addKeyword(def);
          return this;
        }
        addKeyword(kwdOrDef, def) {
          let keyword;
          if (typeof kwdOrDef == "string") {
            keyword = kwdOrDef;
            if (typeof def == "object") {
              this.logger.warn("these parameters are deprecated, see docs for addKeyword");
              def.keyword = keyword;
            }
          } else if (typeof kwdOrDef == "object" && def === void 0) {
            def = kwdOrDef;
            keyword = def.keyword;
            if (Array.isArray(keyword) && !keyword.length) {
              throw new Error("addKeywords: keyword must be string or non-empty array");
            }
          } else {
            throw new Error("invalid addKeywords parameters");
          }
          checkKeyword.call(this, keyword, def);
          if (!def) {
            (0, util_1.eachItem)(keyword, (kwd) => addRule.call(this, kwd));
            return this;
          }
          keywordMetaschema.call(this, def);
          const definition = {
            ...def,
            type: (0, dataType_1.getJSONTypes)(def.type),
            schemaType: (0, dataType_1.getJSONTypes)(def.schemaType)
          };
          (0, util_1.eachItem)(keyword, definition.type.length === 0 ? (k) => addRule.call(this, k, definition) : (k) => definition.type.forEach((t) => addRule.call(this, k, definition, t)));
          return this;
        }
        getKeyword(keyword) {
          const rule = this.RULES.all[keyword];
          return typeof rule == "object" ? rule.definition : !!rule;
        }
        // Remove keyword
        removeKeyword(keyword) {
          const { RULES } = this;
          delete RULES.keywords[keyword];
          delete RULES.all[keyword];
          for (const group of RULES.rules) {
            const i = group.rules.findIndex((rule) => rule.keyword === keyword);
            if (i >= 0)
              group.rules.splice(i, 1);
          }
          return this;
        }
        // Add format
        addFormat(name, format) {
          if (typeof format == "string")
            format = new RegExp(format);
          this.formats[name] = format;
          return this;
        }
        errorsText(errors = this.errors, { separator = ", ", dataVar = "data" } = {}) {
          if (!errors || errors.length === 0)
            return "No errors";
          return errors.map((e) => `${dataVar}${e.instancePath} ${e.message}`).reduce((text3, msg) => text3 + separator + msg);
        }
        $dataMetaSchema(metaSchema, keywordsJsonPointers) {
          const rules = this.RULES.all;
          metaSchema = JSON.parse(JSON.stringify(metaSchema));
          for (const jsonPointer of keywordsJsonPointers) {
            const segments = jsonPointer.split("/").slice(1);
            let keywords = metaSchema;
            for (const seg of segments)
              keywords = keywords[seg];
            for (const key in rules) {
              const rule = rules[key];
              if (typeof rule != "object")
                continue;
              const { $data } = rule.definition;
              const schema = keywords[key];
              if ($data && schema)
                keywords[key] = schemaOrData(schema);
            }
          }
          return metaSchema;
        }
        _removeAllSchemas(schemas, regex) {
          for (const keyRef in schemas) {
            const sch = schemas[keyRef];
            if (!regex || regex.test(keyRef)) {
              if (typeof sch == "string") {
                delete schemas[keyRef];
              } else if (sch && !sch.meta) {
                this._cache.delete(sch.schema);
                delete schemas[keyRef];
              }
            }
          }
        }
        _addSchema(schema, meta, baseId, validateSchema = this.opts.validateSchema, addSchema = this.opts.addUsedSchema) {
          let id;
          const { schemaId } = this.opts;
          if (typeof schema == "object") {
            id = schema[schemaId];
          } else {
            if (this.opts.jtd)
              throw new Error("schema must be object");
            else if (typeof schema != "boolean")
              throw new Error("schema must be object or boolean");
          }
          let sch = this._cache.get(schema);
          if (sch !== void 0)
            return sch;
          baseId = (0, resolve_1.normalizeId)(id || baseId);
          const localRefs = resolve_1.getSchemaRefs.call(this, schema, baseId);
          sch = new compile_1.SchemaEnv({ schema, schemaId, meta, baseId, localRefs });
          this._cache.set(sch.schema, sch);
          if (addSchema && !baseId.startsWith("#")) {
            if (baseId)
              this._checkUnique(baseId);
            this.refs[baseId] = sch;
          }
          if (validateSchema)
            this.validateSchema(schema, true);
          return sch;
        }
        _checkUnique(id) {
          if (this.schemas[id] || this.refs[id]) {
            throw new Error(`schema with key or id "${id}" already exists`);
          }
        }
        _compileSchemaEnv(sch) {
          if (sch.meta)
            this._compileMetaSchema(sch);
          else
            compile_1.compileSchema.call(this, sch);
          if (!sch.validate)
            throw new Error("ajv implementation error");
          return sch.validate;
        }
        _compileMetaSchema(sch) {
          const currentOpts = this.opts;
          this.opts = this._metaOpts;
          try {
            compile_1.compileSchema.call(this, sch);
          } finally {
            this.opts = currentOpts;
          }
        }
      };
      Ajv.ValidationError = validation_error_1.default;
      Ajv.MissingRefError = ref_error_1.default;
      exports.default = Ajv;
      function checkOptions(checkOpts, options, msg, log = "error") {
        for (const key in checkOpts) {
          const opt = key;
          if (opt in options)
            this.logger[log](`${msg}: option ${key}. ${checkOpts[opt]}`);
        }
      }
      function getSchEnv(keyRef) {
        keyRef = (0, resolve_1.normalizeId)(keyRef);
        return this.schemas[keyRef] || this.refs[keyRef];
      }
      function addInitialSchemas() {
        const optsSchemas = this.opts.schemas;
        if (!optsSchemas)
          return;
        if (Array.isArray(optsSchemas))
          this.addSchema(optsSchemas);
        else
          for (const key in optsSchemas)
            this.addSchema(optsSchemas[key], key);
      }
      function addInitialFormats() {
        for (const name in this.opts.formats) {
          const format = this.opts.formats[name];
          if (format)
            this.addFormat(name, format);
        }
      }
      function addInitialKeywords(defs) {
        if (Array.isArray(defs)) {
          this.addVocabulary(defs);
          return;
        }
        this.logger.warn("keywords option as map is deprecated, pass array");
        for (const keyword in defs) {
          const def = defs[keyword];
          if (!def.keyword)
            def.keyword = keyword;
          this.addKeyword(def);
        }
      }
      function getMetaSchemaOptions() {
        const metaOpts = { ...this.opts };
        for (const opt of META_IGNORE_OPTIONS)
          delete metaOpts[opt];
        return metaOpts;
      }
      var noLogs = { log() {
      }, warn() {
      }, error() {
      } };
      function getLogger(logger) {
        if (logger === false)
          return noLogs;
        if (logger === void 0)
          return console;
        if (logger.log && logger.warn && logger.error)
          return logger;
        throw new Error("logger must implement log, warn and error methods");
      }
      var KEYWORD_NAME = /^[a-z_$][a-z0-9_$:-]*$/i;
      function checkKeyword(keyword, def) {
        const { RULES } = this;
        (0, util_1.eachItem)(keyword, (kwd) => {
          if (RULES.keywords[kwd])
            throw new Error(`Keyword ${kwd} is already defined`);
          if (!KEYWORD_NAME.test(kwd))
            throw new Error(`Keyword ${kwd} has invalid name`);
        });
        if (!def)
          return;
        if (def.$data && !("code" in def || "validate" in def)) {
          throw new Error('$data keyword must have "code" or "validate" function');
        }
      }
      function addRule(keyword, definition, dataType) {
        var _a;
        const post = definition === null || definition === void 0 ? void 0 : definition.post;
        if (dataType && post)
          throw new Error('keyword with "post" flag cannot have "type"');
        const { RULES } = this;
        let ruleGroup = post ? RULES.post : RULES.rules.find(({ type: t }) => t === dataType);
        if (!ruleGroup) {
          ruleGroup = { type: dataType, rules: [] };
          RULES.rules.push(ruleGroup);
        }
        RULES.keywords[keyword] = true;
        if (!definition)
          return;
        const rule = {
          keyword,
          definition: {
            ...definition,
            type: (0, dataType_1.getJSONTypes)(definition.type),
            schemaType: (0, dataType_1.getJSONTypes)(definition.schemaType)
          }
        };
        if (definition.before)
          addBeforeRule.call(this, ruleGroup, rule, definition.before);
        else
          ruleGroup.rules.push(rule);
        RULES.all[keyword] = rule;
        (_a = definition.implements) === null || _a === void 0 ? void 0 : _a.forEach((kwd) => this.addKeyword(kwd));
      }
      function addBeforeRule(ruleGroup, rule, before) {
        const i = ruleGroup.rules.findIndex((_rule) => _rule.keyword === before);
        if (i >= 0) {
          ruleGroup.rules.splice(i, 0, rule);
        } else {
          ruleGroup.rules.push(rule);
          this.logger.warn(`rule ${before} is not defined`);
        }
      }
      function keywordMetaschema(def) {
        let { metaSchema } = def;
        if (metaSchema === void 0)
          return;
        if (def.$data && this.opts.$data)
          metaSchema = schemaOrData(metaSchema);
        def.validateSchema = this.compile(metaSchema, true);
      }
      var $dataRef = {
        $ref: "https://raw.githubusercontent.com/ajv-validator/ajv/master/lib/refs/data.json#"
      };
      function schemaOrData(schema) {
        return { anyOf: [schema, $dataRef] };
      }
    }
  });

  // node_modules/ajv/dist/vocabularies/core/id.js
  var require_id = __commonJS({
    "node_modules/ajv/dist/vocabularies/core/id.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var def = {
        keyword: "id",
        code() {
          throw new Error('NOT SUPPORTED: keyword "id", use "$id" for schema ID');
        }
      };
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/vocabularies/core/ref.js
  var require_ref = __commonJS({
    "node_modules/ajv/dist/vocabularies/core/ref.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      exports.callRef = exports.getValidate = void 0;
      var ref_error_1 = require_ref_error();
      var code_1 = require_code2();
      var codegen_1 = require_codegen();
      var names_1 = require_names();
      var compile_1 = require_compile();
      var util_1 = require_util();
      var def = {
        keyword: "$ref",
        schemaType: "string",
        code(cxt) {
          const { gen, schema: $ref, it } = cxt;
          const { baseId, schemaEnv: env, validateName, opts, self } = it;
          const { root } = env;
          if (($ref === "#" || $ref === "#/") && baseId === root.baseId)
            return callRootRef();
          const schOrEnv = compile_1.resolveRef.call(self, root, baseId, $ref);
          if (schOrEnv === void 0)
            throw new ref_error_1.default(it.opts.uriResolver, baseId, $ref);
          if (schOrEnv instanceof compile_1.SchemaEnv)
            return callValidate(schOrEnv);
          return inlineRefSchema(schOrEnv);
          function callRootRef() {
            if (env === root)
              return callRef(cxt, validateName, env, env.$async);
            const rootName = gen.scopeValue("root", { ref: root });
            return callRef(cxt, (0, codegen_1._)`${rootName}.validate`, root, root.$async);
          }
          function callValidate(sch) {
            const v = getValidate(cxt, sch);
            callRef(cxt, v, sch, sch.$async);
          }
          function inlineRefSchema(sch) {
            const schName = gen.scopeValue("schema", opts.code.source === true ? { ref: sch, code: (0, codegen_1.stringify)(sch) } : { ref: sch });
            const valid = gen.name("valid");
            const schCxt = cxt.subschema({
              schema: sch,
              dataTypes: [],
              schemaPath: codegen_1.nil,
              topSchemaRef: schName,
              errSchemaPath: $ref
            }, valid);
            cxt.mergeEvaluated(schCxt);
            cxt.ok(valid);
          }
        }
      };
      function getValidate(cxt, sch) {
        const { gen } = cxt;
        return sch.validate ? gen.scopeValue("validate", { ref: sch.validate }) : (0, codegen_1._)`${gen.scopeValue("wrapper", { ref: sch })}.validate`;
      }
      exports.getValidate = getValidate;
      function callRef(cxt, v, sch, $async) {
        const { gen, it } = cxt;
        const { allErrors, schemaEnv: env, opts } = it;
        const passCxt = opts.passContext ? names_1.default.this : codegen_1.nil;
        if ($async)
          callAsyncRef();
        else
          callSyncRef();
        function callAsyncRef() {
          if (!env.$async)
            throw new Error("async schema referenced by sync schema");
          const valid = gen.let("valid");
          gen.try(() => {
            gen.code((0, codegen_1._)`await ${(0, code_1.callValidateCode)(cxt, v, passCxt)}`);
            addEvaluatedFrom(v);
            if (!allErrors)
              gen.assign(valid, true);
          }, (e) => {
            gen.if((0, codegen_1._)`!(${e} instanceof ${it.ValidationError})`, () => gen.throw(e));
            addErrorsFrom(e);
            if (!allErrors)
              gen.assign(valid, false);
          });
          cxt.ok(valid);
        }
        function callSyncRef() {
          cxt.result((0, code_1.callValidateCode)(cxt, v, passCxt), () => addEvaluatedFrom(v), () => addErrorsFrom(v));
        }
        function addErrorsFrom(source) {
          const errs = (0, codegen_1._)`${source}.errors`;
          gen.assign(names_1.default.vErrors, (0, codegen_1._)`${names_1.default.vErrors} === null ? ${errs} : ${names_1.default.vErrors}.concat(${errs})`);
          gen.assign(names_1.default.errors, (0, codegen_1._)`${names_1.default.vErrors}.length`);
        }
        function addEvaluatedFrom(source) {
          var _a;
          if (!it.opts.unevaluated)
            return;
          const schEvaluated = (_a = sch === null || sch === void 0 ? void 0 : sch.validate) === null || _a === void 0 ? void 0 : _a.evaluated;
          if (it.props !== true) {
            if (schEvaluated && !schEvaluated.dynamicProps) {
              if (schEvaluated.props !== void 0) {
                it.props = util_1.mergeEvaluated.props(gen, schEvaluated.props, it.props);
              }
            } else {
              const props = gen.var("props", (0, codegen_1._)`${source}.evaluated.props`);
              it.props = util_1.mergeEvaluated.props(gen, props, it.props, codegen_1.Name);
            }
          }
          if (it.items !== true) {
            if (schEvaluated && !schEvaluated.dynamicItems) {
              if (schEvaluated.items !== void 0) {
                it.items = util_1.mergeEvaluated.items(gen, schEvaluated.items, it.items);
              }
            } else {
              const items = gen.var("items", (0, codegen_1._)`${source}.evaluated.items`);
              it.items = util_1.mergeEvaluated.items(gen, items, it.items, codegen_1.Name);
            }
          }
        }
      }
      exports.callRef = callRef;
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/vocabularies/core/index.js
  var require_core2 = __commonJS({
    "node_modules/ajv/dist/vocabularies/core/index.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var id_1 = require_id();
      var ref_1 = require_ref();
      var core = [
        "$schema",
        "$id",
        "$defs",
        "$vocabulary",
        { keyword: "$comment" },
        "definitions",
        id_1.default,
        ref_1.default
      ];
      exports.default = core;
    }
  });

  // node_modules/ajv/dist/vocabularies/validation/limitNumber.js
  var require_limitNumber = __commonJS({
    "node_modules/ajv/dist/vocabularies/validation/limitNumber.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var codegen_1 = require_codegen();
      var ops = codegen_1.operators;
      var KWDs = {
        maximum: { okStr: "<=", ok: ops.LTE, fail: ops.GT },
        minimum: { okStr: ">=", ok: ops.GTE, fail: ops.LT },
        exclusiveMaximum: { okStr: "<", ok: ops.LT, fail: ops.GTE },
        exclusiveMinimum: { okStr: ">", ok: ops.GT, fail: ops.LTE }
      };
      var error = {
        message: ({ keyword, schemaCode }) => (0, codegen_1.str)`must be ${KWDs[keyword].okStr} ${schemaCode}`,
        params: ({ keyword, schemaCode }) => (0, codegen_1._)`{comparison: ${KWDs[keyword].okStr}, limit: ${schemaCode}}`
      };
      var def = {
        keyword: Object.keys(KWDs),
        type: "number",
        schemaType: "number",
        $data: true,
        error,
        code(cxt) {
          const { keyword, data, schemaCode } = cxt;
          cxt.fail$data((0, codegen_1._)`${data} ${KWDs[keyword].fail} ${schemaCode} || isNaN(${data})`);
        }
      };
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/vocabularies/validation/multipleOf.js
  var require_multipleOf = __commonJS({
    "node_modules/ajv/dist/vocabularies/validation/multipleOf.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var codegen_1 = require_codegen();
      var error = {
        message: ({ schemaCode }) => (0, codegen_1.str)`must be multiple of ${schemaCode}`,
        params: ({ schemaCode }) => (0, codegen_1._)`{multipleOf: ${schemaCode}}`
      };
      var def = {
        keyword: "multipleOf",
        type: "number",
        schemaType: "number",
        $data: true,
        error,
        code(cxt) {
          const { gen, data, schemaCode, it } = cxt;
          const prec = it.opts.multipleOfPrecision;
          const res = gen.let("res");
          const invalid2 = prec ? (0, codegen_1._)`Math.abs(Math.round(${res}) - ${res}) > 1e-${prec}` : (0, codegen_1._)`${res} !== parseInt(${res})`;
          cxt.fail$data((0, codegen_1._)`(${schemaCode} === 0 || (${res} = ${data}/${schemaCode}, ${invalid2}))`);
        }
      };
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/runtime/ucs2length.js
  var require_ucs2length = __commonJS({
    "node_modules/ajv/dist/runtime/ucs2length.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      function ucs2length(str) {
        const len = str.length;
        let length = 0;
        let pos = 0;
        let value;
        while (pos < len) {
          length++;
          value = str.charCodeAt(pos++);
          if (value >= 55296 && value <= 56319 && pos < len) {
            value = str.charCodeAt(pos);
            if ((value & 64512) === 56320)
              pos++;
          }
        }
        return length;
      }
      exports.default = ucs2length;
      ucs2length.code = 'require("ajv/dist/runtime/ucs2length").default';
    }
  });

  // node_modules/ajv/dist/vocabularies/validation/limitLength.js
  var require_limitLength = __commonJS({
    "node_modules/ajv/dist/vocabularies/validation/limitLength.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var codegen_1 = require_codegen();
      var util_1 = require_util();
      var ucs2length_1 = require_ucs2length();
      var error = {
        message({ keyword, schemaCode }) {
          const comp = keyword === "maxLength" ? "more" : "fewer";
          return (0, codegen_1.str)`must NOT have ${comp} than ${schemaCode} characters`;
        },
        params: ({ schemaCode }) => (0, codegen_1._)`{limit: ${schemaCode}}`
      };
      var def = {
        keyword: ["maxLength", "minLength"],
        type: "string",
        schemaType: "number",
        $data: true,
        error,
        code(cxt) {
          const { keyword, data, schemaCode, it } = cxt;
          const op = keyword === "maxLength" ? codegen_1.operators.GT : codegen_1.operators.LT;
          const len = it.opts.unicode === false ? (0, codegen_1._)`${data}.length` : (0, codegen_1._)`${(0, util_1.useFunc)(cxt.gen, ucs2length_1.default)}(${data})`;
          cxt.fail$data((0, codegen_1._)`${len} ${op} ${schemaCode}`);
        }
      };
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/vocabularies/validation/pattern.js
  var require_pattern = __commonJS({
    "node_modules/ajv/dist/vocabularies/validation/pattern.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var code_1 = require_code2();
      var util_1 = require_util();
      var codegen_1 = require_codegen();
      var error = {
        message: ({ schemaCode }) => (0, codegen_1.str)`must match pattern "${schemaCode}"`,
        params: ({ schemaCode }) => (0, codegen_1._)`{pattern: ${schemaCode}}`
      };
      var def = {
        keyword: "pattern",
        type: "string",
        schemaType: "string",
        $data: true,
        error,
        code(cxt) {
          const { gen, data, $data, schema, schemaCode, it } = cxt;
          const u = it.opts.unicodeRegExp ? "u" : "";
          if ($data) {
            const { regExp } = it.opts.code;
            const regExpCode = regExp.code === "new RegExp" ? (0, codegen_1._)`new RegExp` : (0, util_1.useFunc)(gen, regExp);
            const valid = gen.let("valid");
            gen.try(() => gen.assign(valid, (0, codegen_1._)`${regExpCode}(${schemaCode}, ${u}).test(${data})`), () => gen.assign(valid, false));
            cxt.fail$data((0, codegen_1._)`!${valid}`);
          } else {
            const regExp = (0, code_1.usePattern)(cxt, schema);
            cxt.fail$data((0, codegen_1._)`!${regExp}.test(${data})`);
          }
        }
      };
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/vocabularies/validation/limitProperties.js
  var require_limitProperties = __commonJS({
    "node_modules/ajv/dist/vocabularies/validation/limitProperties.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var codegen_1 = require_codegen();
      var error = {
        message({ keyword, schemaCode }) {
          const comp = keyword === "maxProperties" ? "more" : "fewer";
          return (0, codegen_1.str)`must NOT have ${comp} than ${schemaCode} properties`;
        },
        params: ({ schemaCode }) => (0, codegen_1._)`{limit: ${schemaCode}}`
      };
      var def = {
        keyword: ["maxProperties", "minProperties"],
        type: "object",
        schemaType: "number",
        $data: true,
        error,
        code(cxt) {
          const { keyword, data, schemaCode } = cxt;
          const op = keyword === "maxProperties" ? codegen_1.operators.GT : codegen_1.operators.LT;
          cxt.fail$data((0, codegen_1._)`Object.keys(${data}).length ${op} ${schemaCode}`);
        }
      };
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/vocabularies/validation/required.js
  var require_required = __commonJS({
    "node_modules/ajv/dist/vocabularies/validation/required.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var code_1 = require_code2();
      var codegen_1 = require_codegen();
      var util_1 = require_util();
      var error = {
        message: ({ params: { missingProperty } }) => (0, codegen_1.str)`must have required property '${missingProperty}'`,
        params: ({ params: { missingProperty } }) => (0, codegen_1._)`{missingProperty: ${missingProperty}}`
      };
      var def = {
        keyword: "required",
        type: "object",
        schemaType: "array",
        $data: true,
        error,
        code(cxt) {
          const { gen, schema, schemaCode, data, $data, it } = cxt;
          const { opts } = it;
          if (!$data && schema.length === 0)
            return;
          const useLoop = schema.length >= opts.loopRequired;
          if (it.allErrors)
            allErrorsMode();
          else
            exitOnErrorMode();
          if (opts.strictRequired) {
            const props = cxt.parentSchema.properties;
            const { definedProperties } = cxt.it;
            for (const requiredKey of schema) {
              if ((props === null || props === void 0 ? void 0 : props[requiredKey]) === void 0 && !definedProperties.has(requiredKey)) {
                const schemaPath = it.schemaEnv.baseId + it.errSchemaPath;
                const msg = `required property "${requiredKey}" is not defined at "${schemaPath}" (strictRequired)`;
                (0, util_1.checkStrictMode)(it, msg, it.opts.strictRequired);
              }
            }
          }
          function allErrorsMode() {
            if (useLoop || $data) {
              cxt.block$data(codegen_1.nil, loopAllRequired);
            } else {
              for (const prop of schema) {
                (0, code_1.checkReportMissingProp)(cxt, prop);
              }
            }
          }
          function exitOnErrorMode() {
            const missing2 = gen.let("missing");
            if (useLoop || $data) {
              const valid = gen.let("valid", true);
              cxt.block$data(valid, () => loopUntilMissing(missing2, valid));
              cxt.ok(valid);
            } else {
              gen.if((0, code_1.checkMissingProp)(cxt, schema, missing2));
              (0, code_1.reportMissingProp)(cxt, missing2);
              gen.else();
            }
          }
          function loopAllRequired() {
            gen.forOf("prop", schemaCode, (prop) => {
              cxt.setParams({ missingProperty: prop });
              gen.if((0, code_1.noPropertyInData)(gen, data, prop, opts.ownProperties), () => cxt.error());
            });
          }
          function loopUntilMissing(missing2, valid) {
            cxt.setParams({ missingProperty: missing2 });
            gen.forOf(missing2, schemaCode, () => {
              gen.assign(valid, (0, code_1.propertyInData)(gen, data, missing2, opts.ownProperties));
              gen.if((0, codegen_1.not)(valid), () => {
                cxt.error();
                gen.break();
              });
            }, codegen_1.nil);
          }
        }
      };
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/vocabularies/validation/limitItems.js
  var require_limitItems = __commonJS({
    "node_modules/ajv/dist/vocabularies/validation/limitItems.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var codegen_1 = require_codegen();
      var error = {
        message({ keyword, schemaCode }) {
          const comp = keyword === "maxItems" ? "more" : "fewer";
          return (0, codegen_1.str)`must NOT have ${comp} than ${schemaCode} items`;
        },
        params: ({ schemaCode }) => (0, codegen_1._)`{limit: ${schemaCode}}`
      };
      var def = {
        keyword: ["maxItems", "minItems"],
        type: "array",
        schemaType: "number",
        $data: true,
        error,
        code(cxt) {
          const { keyword, data, schemaCode } = cxt;
          const op = keyword === "maxItems" ? codegen_1.operators.GT : codegen_1.operators.LT;
          cxt.fail$data((0, codegen_1._)`${data}.length ${op} ${schemaCode}`);
        }
      };
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/runtime/equal.js
  var require_equal = __commonJS({
    "node_modules/ajv/dist/runtime/equal.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var equal = require_fast_deep_equal();
      equal.code = 'require("ajv/dist/runtime/equal").default';
      exports.default = equal;
    }
  });

  // node_modules/ajv/dist/vocabularies/validation/uniqueItems.js
  var require_uniqueItems = __commonJS({
    "node_modules/ajv/dist/vocabularies/validation/uniqueItems.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var dataType_1 = require_dataType();
      var codegen_1 = require_codegen();
      var util_1 = require_util();
      var equal_1 = require_equal();
      var error = {
        message: ({ params: { i, j } }) => (0, codegen_1.str)`must NOT have duplicate items (items ## ${j} and ${i} are identical)`,
        params: ({ params: { i, j } }) => (0, codegen_1._)`{i: ${i}, j: ${j}}`
      };
      var def = {
        keyword: "uniqueItems",
        type: "array",
        schemaType: "boolean",
        $data: true,
        error,
        code(cxt) {
          const { gen, data, $data, schema, parentSchema, schemaCode, it } = cxt;
          if (!$data && !schema)
            return;
          const valid = gen.let("valid");
          const itemTypes = parentSchema.items ? (0, dataType_1.getSchemaTypes)(parentSchema.items) : [];
          cxt.block$data(valid, validateUniqueItems, (0, codegen_1._)`${schemaCode} === false`);
          cxt.ok(valid);
          function validateUniqueItems() {
            const i = gen.let("i", (0, codegen_1._)`${data}.length`);
            const j = gen.let("j");
            cxt.setParams({ i, j });
            gen.assign(valid, true);
            gen.if((0, codegen_1._)`${i} > 1`, () => (canOptimize() ? loopN : loopN2)(i, j));
          }
          function canOptimize() {
            return itemTypes.length > 0 && !itemTypes.some((t) => t === "object" || t === "array");
          }
          function loopN(i, j) {
            const item = gen.name("item");
            const wrongType = (0, dataType_1.checkDataTypes)(itemTypes, item, it.opts.strictNumbers, dataType_1.DataType.Wrong);
            const indices = gen.const("indices", (0, codegen_1._)`{}`);
            gen.for((0, codegen_1._)`;${i}--;`, () => {
              gen.let(item, (0, codegen_1._)`${data}[${i}]`);
              gen.if(wrongType, (0, codegen_1._)`continue`);
              if (itemTypes.length > 1)
                gen.if((0, codegen_1._)`typeof ${item} == "string"`, (0, codegen_1._)`${item} += "_"`);
              gen.if((0, codegen_1._)`typeof ${indices}[${item}] == "number"`, () => {
                gen.assign(j, (0, codegen_1._)`${indices}[${item}]`);
                cxt.error();
                gen.assign(valid, false).break();
              }).code((0, codegen_1._)`${indices}[${item}] = ${i}`);
            });
          }
          function loopN2(i, j) {
            const eql = (0, util_1.useFunc)(gen, equal_1.default);
            const outer = gen.name("outer");
            gen.label(outer).for((0, codegen_1._)`;${i}--;`, () => gen.for((0, codegen_1._)`${j} = ${i}; ${j}--;`, () => gen.if((0, codegen_1._)`${eql}(${data}[${i}], ${data}[${j}])`, () => {
              cxt.error();
              gen.assign(valid, false).break(outer);
            })));
          }
        }
      };
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/vocabularies/validation/const.js
  var require_const = __commonJS({
    "node_modules/ajv/dist/vocabularies/validation/const.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var codegen_1 = require_codegen();
      var util_1 = require_util();
      var equal_1 = require_equal();
      var error = {
        message: "must be equal to constant",
        params: ({ schemaCode }) => (0, codegen_1._)`{allowedValue: ${schemaCode}}`
      };
      var def = {
        keyword: "const",
        $data: true,
        error,
        code(cxt) {
          const { gen, data, $data, schemaCode, schema } = cxt;
          if ($data || schema && typeof schema == "object") {
            cxt.fail$data((0, codegen_1._)`!${(0, util_1.useFunc)(gen, equal_1.default)}(${data}, ${schemaCode})`);
          } else {
            cxt.fail((0, codegen_1._)`${schema} !== ${data}`);
          }
        }
      };
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/vocabularies/validation/enum.js
  var require_enum = __commonJS({
    "node_modules/ajv/dist/vocabularies/validation/enum.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var codegen_1 = require_codegen();
      var util_1 = require_util();
      var equal_1 = require_equal();
      var error = {
        message: "must be equal to one of the allowed values",
        params: ({ schemaCode }) => (0, codegen_1._)`{allowedValues: ${schemaCode}}`
      };
      var def = {
        keyword: "enum",
        schemaType: "array",
        $data: true,
        error,
        code(cxt) {
          const { gen, data, $data, schema, schemaCode, it } = cxt;
          if (!$data && schema.length === 0)
            throw new Error("enum must have non-empty array");
          const useLoop = schema.length >= it.opts.loopEnum;
          let eql;
          const getEql = () => eql !== null && eql !== void 0 ? eql : eql = (0, util_1.useFunc)(gen, equal_1.default);
          let valid;
          if (useLoop || $data) {
            valid = gen.let("valid");
            cxt.block$data(valid, loopEnum);
          } else {
            if (!Array.isArray(schema))
              throw new Error("ajv implementation error");
            const vSchema = gen.const("vSchema", schemaCode);
            valid = (0, codegen_1.or)(...schema.map((_x, i) => equalCode(vSchema, i)));
          }
          cxt.pass(valid);
          function loopEnum() {
            gen.assign(valid, false);
            gen.forOf("v", schemaCode, (v) => gen.if((0, codegen_1._)`${getEql()}(${data}, ${v})`, () => gen.assign(valid, true).break()));
          }
          function equalCode(vSchema, i) {
            const sch = schema[i];
            return typeof sch === "object" && sch !== null ? (0, codegen_1._)`${getEql()}(${data}, ${vSchema}[${i}])` : (0, codegen_1._)`${data} === ${sch}`;
          }
        }
      };
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/vocabularies/validation/index.js
  var require_validation = __commonJS({
    "node_modules/ajv/dist/vocabularies/validation/index.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var limitNumber_1 = require_limitNumber();
      var multipleOf_1 = require_multipleOf();
      var limitLength_1 = require_limitLength();
      var pattern_1 = require_pattern();
      var limitProperties_1 = require_limitProperties();
      var required_1 = require_required();
      var limitItems_1 = require_limitItems();
      var uniqueItems_1 = require_uniqueItems();
      var const_1 = require_const();
      var enum_1 = require_enum();
      var validation = [
        // number
        limitNumber_1.default,
        multipleOf_1.default,
        // string
        limitLength_1.default,
        pattern_1.default,
        // object
        limitProperties_1.default,
        required_1.default,
        // array
        limitItems_1.default,
        uniqueItems_1.default,
        // any
        { keyword: "type", schemaType: ["string", "array"] },
        { keyword: "nullable", schemaType: "boolean" },
        const_1.default,
        enum_1.default
      ];
      exports.default = validation;
    }
  });

  // node_modules/ajv/dist/vocabularies/applicator/additionalItems.js
  var require_additionalItems = __commonJS({
    "node_modules/ajv/dist/vocabularies/applicator/additionalItems.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      exports.validateAdditionalItems = void 0;
      var codegen_1 = require_codegen();
      var util_1 = require_util();
      var error = {
        message: ({ params: { len } }) => (0, codegen_1.str)`must NOT have more than ${len} items`,
        params: ({ params: { len } }) => (0, codegen_1._)`{limit: ${len}}`
      };
      var def = {
        keyword: "additionalItems",
        type: "array",
        schemaType: ["boolean", "object"],
        before: "uniqueItems",
        error,
        code(cxt) {
          const { parentSchema, it } = cxt;
          const { items } = parentSchema;
          if (!Array.isArray(items)) {
            (0, util_1.checkStrictMode)(it, '"additionalItems" is ignored when "items" is not an array of schemas');
            return;
          }
          validateAdditionalItems(cxt, items);
        }
      };
      function validateAdditionalItems(cxt, items) {
        const { gen, schema, data, keyword, it } = cxt;
        it.items = true;
        const len = gen.const("len", (0, codegen_1._)`${data}.length`);
        if (schema === false) {
          cxt.setParams({ len: items.length });
          cxt.pass((0, codegen_1._)`${len} <= ${items.length}`);
        } else if (typeof schema == "object" && !(0, util_1.alwaysValidSchema)(it, schema)) {
          const valid = gen.var("valid", (0, codegen_1._)`${len} <= ${items.length}`);
          gen.if((0, codegen_1.not)(valid), () => validateItems(valid));
          cxt.ok(valid);
        }
        function validateItems(valid) {
          gen.forRange("i", items.length, len, (i) => {
            cxt.subschema({ keyword, dataProp: i, dataPropType: util_1.Type.Num }, valid);
            if (!it.allErrors)
              gen.if((0, codegen_1.not)(valid), () => gen.break());
          });
        }
      }
      exports.validateAdditionalItems = validateAdditionalItems;
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/vocabularies/applicator/items.js
  var require_items = __commonJS({
    "node_modules/ajv/dist/vocabularies/applicator/items.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      exports.validateTuple = void 0;
      var codegen_1 = require_codegen();
      var util_1 = require_util();
      var code_1 = require_code2();
      var def = {
        keyword: "items",
        type: "array",
        schemaType: ["object", "array", "boolean"],
        before: "uniqueItems",
        code(cxt) {
          const { schema, it } = cxt;
          if (Array.isArray(schema))
            return validateTuple(cxt, "additionalItems", schema);
          it.items = true;
          if ((0, util_1.alwaysValidSchema)(it, schema))
            return;
          cxt.ok((0, code_1.validateArray)(cxt));
        }
      };
      function validateTuple(cxt, extraItems, schArr = cxt.schema) {
        const { gen, parentSchema, data, keyword, it } = cxt;
        checkStrictTuple(parentSchema);
        if (it.opts.unevaluated && schArr.length && it.items !== true) {
          it.items = util_1.mergeEvaluated.items(gen, schArr.length, it.items);
        }
        const valid = gen.name("valid");
        const len = gen.const("len", (0, codegen_1._)`${data}.length`);
        schArr.forEach((sch, i) => {
          if ((0, util_1.alwaysValidSchema)(it, sch))
            return;
          gen.if((0, codegen_1._)`${len} > ${i}`, () => cxt.subschema({
            keyword,
            schemaProp: i,
            dataProp: i
          }, valid));
          cxt.ok(valid);
        });
        function checkStrictTuple(sch) {
          const { opts, errSchemaPath } = it;
          const l = schArr.length;
          const fullTuple = l === sch.minItems && (l === sch.maxItems || sch[extraItems] === false);
          if (opts.strictTuples && !fullTuple) {
            const msg = `"${keyword}" is ${l}-tuple, but minItems or maxItems/${extraItems} are not specified or different at path "${errSchemaPath}"`;
            (0, util_1.checkStrictMode)(it, msg, opts.strictTuples);
          }
        }
      }
      exports.validateTuple = validateTuple;
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/vocabularies/applicator/prefixItems.js
  var require_prefixItems = __commonJS({
    "node_modules/ajv/dist/vocabularies/applicator/prefixItems.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var items_1 = require_items();
      var def = {
        keyword: "prefixItems",
        type: "array",
        schemaType: ["array"],
        before: "uniqueItems",
        code: (cxt) => (0, items_1.validateTuple)(cxt, "items")
      };
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/vocabularies/applicator/items2020.js
  var require_items2020 = __commonJS({
    "node_modules/ajv/dist/vocabularies/applicator/items2020.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var codegen_1 = require_codegen();
      var util_1 = require_util();
      var code_1 = require_code2();
      var additionalItems_1 = require_additionalItems();
      var error = {
        message: ({ params: { len } }) => (0, codegen_1.str)`must NOT have more than ${len} items`,
        params: ({ params: { len } }) => (0, codegen_1._)`{limit: ${len}}`
      };
      var def = {
        keyword: "items",
        type: "array",
        schemaType: ["object", "boolean"],
        before: "uniqueItems",
        error,
        code(cxt) {
          const { schema, parentSchema, it } = cxt;
          const { prefixItems } = parentSchema;
          it.items = true;
          if ((0, util_1.alwaysValidSchema)(it, schema))
            return;
          if (prefixItems)
            (0, additionalItems_1.validateAdditionalItems)(cxt, prefixItems);
          else
            cxt.ok((0, code_1.validateArray)(cxt));
        }
      };
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/vocabularies/applicator/contains.js
  var require_contains = __commonJS({
    "node_modules/ajv/dist/vocabularies/applicator/contains.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var codegen_1 = require_codegen();
      var util_1 = require_util();
      var error = {
        message: ({ params: { min, max } }) => max === void 0 ? (0, codegen_1.str)`must contain at least ${min} valid item(s)` : (0, codegen_1.str)`must contain at least ${min} and no more than ${max} valid item(s)`,
        params: ({ params: { min, max } }) => max === void 0 ? (0, codegen_1._)`{minContains: ${min}}` : (0, codegen_1._)`{minContains: ${min}, maxContains: ${max}}`
      };
      var def = {
        keyword: "contains",
        type: "array",
        schemaType: ["object", "boolean"],
        before: "uniqueItems",
        trackErrors: true,
        error,
        code(cxt) {
          const { gen, schema, parentSchema, data, it } = cxt;
          let min;
          let max;
          const { minContains, maxContains } = parentSchema;
          if (it.opts.next) {
            min = minContains === void 0 ? 1 : minContains;
            max = maxContains;
          } else {
            min = 1;
          }
          const len = gen.const("len", (0, codegen_1._)`${data}.length`);
          cxt.setParams({ min, max });
          if (max === void 0 && min === 0) {
            (0, util_1.checkStrictMode)(it, `"minContains" == 0 without "maxContains": "contains" keyword ignored`);
            return;
          }
          if (max !== void 0 && min > max) {
            (0, util_1.checkStrictMode)(it, `"minContains" > "maxContains" is always invalid`);
            cxt.fail();
            return;
          }
          if ((0, util_1.alwaysValidSchema)(it, schema)) {
            let cond = (0, codegen_1._)`${len} >= ${min}`;
            if (max !== void 0)
              cond = (0, codegen_1._)`${cond} && ${len} <= ${max}`;
            cxt.pass(cond);
            return;
          }
          it.items = true;
          const valid = gen.name("valid");
          if (max === void 0 && min === 1) {
            validateItems(valid, () => gen.if(valid, () => gen.break()));
          } else if (min === 0) {
            gen.let(valid, true);
            if (max !== void 0)
              gen.if((0, codegen_1._)`${data}.length > 0`, validateItemsWithCount);
          } else {
            gen.let(valid, false);
            validateItemsWithCount();
          }
          cxt.result(valid, () => cxt.reset());
          function validateItemsWithCount() {
            const schValid = gen.name("_valid");
            const count = gen.let("count", 0);
            validateItems(schValid, () => gen.if(schValid, () => checkLimits(count)));
          }
          function validateItems(_valid, block) {
            gen.forRange("i", 0, len, (i) => {
              cxt.subschema({
                keyword: "contains",
                dataProp: i,
                dataPropType: util_1.Type.Num,
                compositeRule: true
              }, _valid);
              block();
            });
          }
          function checkLimits(count) {
            gen.code((0, codegen_1._)`${count}++`);
            if (max === void 0) {
              gen.if((0, codegen_1._)`${count} >= ${min}`, () => gen.assign(valid, true).break());
            } else {
              gen.if((0, codegen_1._)`${count} > ${max}`, () => gen.assign(valid, false).break());
              if (min === 1)
                gen.assign(valid, true);
              else
                gen.if((0, codegen_1._)`${count} >= ${min}`, () => gen.assign(valid, true));
            }
          }
        }
      };
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/vocabularies/applicator/dependencies.js
  var require_dependencies = __commonJS({
    "node_modules/ajv/dist/vocabularies/applicator/dependencies.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      exports.validateSchemaDeps = exports.validatePropertyDeps = exports.error = void 0;
      var codegen_1 = require_codegen();
      var util_1 = require_util();
      var code_1 = require_code2();
      exports.error = {
        message: ({ params: { property, depsCount, deps } }) => {
          const property_ies = depsCount === 1 ? "property" : "properties";
          return (0, codegen_1.str)`must have ${property_ies} ${deps} when property ${property} is present`;
        },
        params: ({ params: { property, depsCount, deps, missingProperty } }) => (0, codegen_1._)`{property: ${property},
    missingProperty: ${missingProperty},
    depsCount: ${depsCount},
    deps: ${deps}}`
        // TODO change to reference
      };
      var def = {
        keyword: "dependencies",
        type: "object",
        schemaType: "object",
        error: exports.error,
        code(cxt) {
          const [propDeps, schDeps] = splitDependencies(cxt);
          validatePropertyDeps(cxt, propDeps);
          validateSchemaDeps(cxt, schDeps);
        }
      };
      function splitDependencies({ schema }) {
        const propertyDeps = {};
        const schemaDeps = {};
        for (const key in schema) {
          if (key === "__proto__")
            continue;
          const deps = Array.isArray(schema[key]) ? propertyDeps : schemaDeps;
          deps[key] = schema[key];
        }
        return [propertyDeps, schemaDeps];
      }
      function validatePropertyDeps(cxt, propertyDeps = cxt.schema) {
        const { gen, data, it } = cxt;
        if (Object.keys(propertyDeps).length === 0)
          return;
        const missing2 = gen.let("missing");
        for (const prop in propertyDeps) {
          const deps = propertyDeps[prop];
          if (deps.length === 0)
            continue;
          const hasProperty = (0, code_1.propertyInData)(gen, data, prop, it.opts.ownProperties);
          cxt.setParams({
            property: prop,
            depsCount: deps.length,
            deps: deps.join(", ")
          });
          if (it.allErrors) {
            gen.if(hasProperty, () => {
              for (const depProp of deps) {
                (0, code_1.checkReportMissingProp)(cxt, depProp);
              }
            });
          } else {
            gen.if((0, codegen_1._)`${hasProperty} && (${(0, code_1.checkMissingProp)(cxt, deps, missing2)})`);
            (0, code_1.reportMissingProp)(cxt, missing2);
            gen.else();
          }
        }
      }
      exports.validatePropertyDeps = validatePropertyDeps;
      function validateSchemaDeps(cxt, schemaDeps = cxt.schema) {
        const { gen, data, keyword, it } = cxt;
        const valid = gen.name("valid");
        for (const prop in schemaDeps) {
          if ((0, util_1.alwaysValidSchema)(it, schemaDeps[prop]))
            continue;
          gen.if(
            (0, code_1.propertyInData)(gen, data, prop, it.opts.ownProperties),
            () => {
              const schCxt = cxt.subschema({ keyword, schemaProp: prop }, valid);
              cxt.mergeValidEvaluated(schCxt, valid);
            },
            () => gen.var(valid, true)
            // TODO var
          );
          cxt.ok(valid);
        }
      }
      exports.validateSchemaDeps = validateSchemaDeps;
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/vocabularies/applicator/propertyNames.js
  var require_propertyNames = __commonJS({
    "node_modules/ajv/dist/vocabularies/applicator/propertyNames.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var codegen_1 = require_codegen();
      var util_1 = require_util();
      var error = {
        message: "property name must be valid",
        params: ({ params }) => (0, codegen_1._)`{propertyName: ${params.propertyName}}`
      };
      var def = {
        keyword: "propertyNames",
        type: "object",
        schemaType: ["object", "boolean"],
        error,
        code(cxt) {
          const { gen, schema, data, it } = cxt;
          if ((0, util_1.alwaysValidSchema)(it, schema))
            return;
          const valid = gen.name("valid");
          gen.forIn("key", data, (key) => {
            cxt.setParams({ propertyName: key });
            cxt.subschema({
              keyword: "propertyNames",
              data: key,
              dataTypes: ["string"],
              propertyName: key,
              compositeRule: true
            }, valid);
            gen.if((0, codegen_1.not)(valid), () => {
              cxt.error(true);
              if (!it.allErrors)
                gen.break();
            });
          });
          cxt.ok(valid);
        }
      };
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/vocabularies/applicator/additionalProperties.js
  var require_additionalProperties = __commonJS({
    "node_modules/ajv/dist/vocabularies/applicator/additionalProperties.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var code_1 = require_code2();
      var codegen_1 = require_codegen();
      var names_1 = require_names();
      var util_1 = require_util();
      var error = {
        message: "must NOT have additional properties",
        params: ({ params }) => (0, codegen_1._)`{additionalProperty: ${params.additionalProperty}}`
      };
      var def = {
        keyword: "additionalProperties",
        type: ["object"],
        schemaType: ["boolean", "object"],
        allowUndefined: true,
        trackErrors: true,
        error,
        code(cxt) {
          const { gen, schema, parentSchema, data, errsCount, it } = cxt;
          if (!errsCount)
            throw new Error("ajv implementation error");
          const { allErrors, opts } = it;
          it.props = true;
          if (opts.removeAdditional !== "all" && (0, util_1.alwaysValidSchema)(it, schema))
            return;
          const props = (0, code_1.allSchemaProperties)(parentSchema.properties);
          const patProps = (0, code_1.allSchemaProperties)(parentSchema.patternProperties);
          checkAdditionalProperties();
          cxt.ok((0, codegen_1._)`${errsCount} === ${names_1.default.errors}`);
          function checkAdditionalProperties() {
            gen.forIn("key", data, (key) => {
              if (!props.length && !patProps.length)
                additionalPropertyCode(key);
              else
                gen.if(isAdditional(key), () => additionalPropertyCode(key));
            });
          }
          function isAdditional(key) {
            let definedProp;
            if (props.length > 8) {
              const propsSchema = (0, util_1.schemaRefOrVal)(it, parentSchema.properties, "properties");
              definedProp = (0, code_1.isOwnProperty)(gen, propsSchema, key);
            } else if (props.length) {
              definedProp = (0, codegen_1.or)(...props.map((p) => (0, codegen_1._)`${key} === ${p}`));
            } else {
              definedProp = codegen_1.nil;
            }
            if (patProps.length) {
              definedProp = (0, codegen_1.or)(definedProp, ...patProps.map((p) => (0, codegen_1._)`${(0, code_1.usePattern)(cxt, p)}.test(${key})`));
            }
            return (0, codegen_1.not)(definedProp);
          }
          function deleteAdditional(key) {
            gen.code((0, codegen_1._)`delete ${data}[${key}]`);
          }
          function additionalPropertyCode(key) {
            if (opts.removeAdditional === "all" || opts.removeAdditional && schema === false) {
              deleteAdditional(key);
              return;
            }
            if (schema === false) {
              cxt.setParams({ additionalProperty: key });
              cxt.error();
              if (!allErrors)
                gen.break();
              return;
            }
            if (typeof schema == "object" && !(0, util_1.alwaysValidSchema)(it, schema)) {
              const valid = gen.name("valid");
              if (opts.removeAdditional === "failing") {
                applyAdditionalSchema(key, valid, false);
                gen.if((0, codegen_1.not)(valid), () => {
                  cxt.reset();
                  deleteAdditional(key);
                });
              } else {
                applyAdditionalSchema(key, valid);
                if (!allErrors)
                  gen.if((0, codegen_1.not)(valid), () => gen.break());
              }
            }
          }
          function applyAdditionalSchema(key, valid, errors) {
            const subschema = {
              keyword: "additionalProperties",
              dataProp: key,
              dataPropType: util_1.Type.Str
            };
            if (errors === false) {
              Object.assign(subschema, {
                compositeRule: true,
                createErrors: false,
                allErrors: false
              });
            }
            cxt.subschema(subschema, valid);
          }
        }
      };
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/vocabularies/applicator/properties.js
  var require_properties = __commonJS({
    "node_modules/ajv/dist/vocabularies/applicator/properties.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var validate_1 = require_validate();
      var code_1 = require_code2();
      var util_1 = require_util();
      var additionalProperties_1 = require_additionalProperties();
      var def = {
        keyword: "properties",
        type: "object",
        schemaType: "object",
        code(cxt) {
          const { gen, schema, parentSchema, data, it } = cxt;
          if (it.opts.removeAdditional === "all" && parentSchema.additionalProperties === void 0) {
            additionalProperties_1.default.code(new validate_1.KeywordCxt(it, additionalProperties_1.default, "additionalProperties"));
          }
          const allProps = (0, code_1.allSchemaProperties)(schema);
          for (const prop of allProps) {
            it.definedProperties.add(prop);
          }
          if (it.opts.unevaluated && allProps.length && it.props !== true) {
            it.props = util_1.mergeEvaluated.props(gen, (0, util_1.toHash)(allProps), it.props);
          }
          const properties = allProps.filter((p) => !(0, util_1.alwaysValidSchema)(it, schema[p]));
          if (properties.length === 0)
            return;
          const valid = gen.name("valid");
          for (const prop of properties) {
            if (hasDefault(prop)) {
              applyPropertySchema(prop);
            } else {
              gen.if((0, code_1.propertyInData)(gen, data, prop, it.opts.ownProperties));
              applyPropertySchema(prop);
              if (!it.allErrors)
                gen.else().var(valid, true);
              gen.endIf();
            }
            cxt.it.definedProperties.add(prop);
            cxt.ok(valid);
          }
          function hasDefault(prop) {
            return it.opts.useDefaults && !it.compositeRule && schema[prop].default !== void 0;
          }
          function applyPropertySchema(prop) {
            cxt.subschema({
              keyword: "properties",
              schemaProp: prop,
              dataProp: prop
            }, valid);
          }
        }
      };
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/vocabularies/applicator/patternProperties.js
  var require_patternProperties = __commonJS({
    "node_modules/ajv/dist/vocabularies/applicator/patternProperties.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var code_1 = require_code2();
      var codegen_1 = require_codegen();
      var util_1 = require_util();
      var util_2 = require_util();
      var def = {
        keyword: "patternProperties",
        type: "object",
        schemaType: "object",
        code(cxt) {
          const { gen, schema, data, parentSchema, it } = cxt;
          const { opts } = it;
          const patterns = (0, code_1.allSchemaProperties)(schema);
          const alwaysValidPatterns = patterns.filter((p) => (0, util_1.alwaysValidSchema)(it, schema[p]));
          if (patterns.length === 0 || alwaysValidPatterns.length === patterns.length && (!it.opts.unevaluated || it.props === true)) {
            return;
          }
          const checkProperties = opts.strictSchema && !opts.allowMatchingProperties && parentSchema.properties;
          const valid = gen.name("valid");
          if (it.props !== true && !(it.props instanceof codegen_1.Name)) {
            it.props = (0, util_2.evaluatedPropsToName)(gen, it.props);
          }
          const { props } = it;
          validatePatternProperties();
          function validatePatternProperties() {
            for (const pat of patterns) {
              if (checkProperties)
                checkMatchingProperties(pat);
              if (it.allErrors) {
                validateProperties(pat);
              } else {
                gen.var(valid, true);
                validateProperties(pat);
                gen.if(valid);
              }
            }
          }
          function checkMatchingProperties(pat) {
            for (const prop in checkProperties) {
              if (new RegExp(pat).test(prop)) {
                (0, util_1.checkStrictMode)(it, `property ${prop} matches pattern ${pat} (use allowMatchingProperties)`);
              }
            }
          }
          function validateProperties(pat) {
            gen.forIn("key", data, (key) => {
              gen.if((0, codegen_1._)`${(0, code_1.usePattern)(cxt, pat)}.test(${key})`, () => {
                const alwaysValid = alwaysValidPatterns.includes(pat);
                if (!alwaysValid) {
                  cxt.subschema({
                    keyword: "patternProperties",
                    schemaProp: pat,
                    dataProp: key,
                    dataPropType: util_2.Type.Str
                  }, valid);
                }
                if (it.opts.unevaluated && props !== true) {
                  gen.assign((0, codegen_1._)`${props}[${key}]`, true);
                } else if (!alwaysValid && !it.allErrors) {
                  gen.if((0, codegen_1.not)(valid), () => gen.break());
                }
              });
            });
          }
        }
      };
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/vocabularies/applicator/not.js
  var require_not = __commonJS({
    "node_modules/ajv/dist/vocabularies/applicator/not.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var util_1 = require_util();
      var def = {
        keyword: "not",
        schemaType: ["object", "boolean"],
        trackErrors: true,
        code(cxt) {
          const { gen, schema, it } = cxt;
          if ((0, util_1.alwaysValidSchema)(it, schema)) {
            cxt.fail();
            return;
          }
          const valid = gen.name("valid");
          cxt.subschema({
            keyword: "not",
            compositeRule: true,
            createErrors: false,
            allErrors: false
          }, valid);
          cxt.failResult(valid, () => cxt.reset(), () => cxt.error());
        },
        error: { message: "must NOT be valid" }
      };
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/vocabularies/applicator/anyOf.js
  var require_anyOf = __commonJS({
    "node_modules/ajv/dist/vocabularies/applicator/anyOf.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var code_1 = require_code2();
      var def = {
        keyword: "anyOf",
        schemaType: "array",
        trackErrors: true,
        code: code_1.validateUnion,
        error: { message: "must match a schema in anyOf" }
      };
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/vocabularies/applicator/oneOf.js
  var require_oneOf = __commonJS({
    "node_modules/ajv/dist/vocabularies/applicator/oneOf.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var codegen_1 = require_codegen();
      var util_1 = require_util();
      var error = {
        message: "must match exactly one schema in oneOf",
        params: ({ params }) => (0, codegen_1._)`{passingSchemas: ${params.passing}}`
      };
      var def = {
        keyword: "oneOf",
        schemaType: "array",
        trackErrors: true,
        error,
        code(cxt) {
          const { gen, schema, parentSchema, it } = cxt;
          if (!Array.isArray(schema))
            throw new Error("ajv implementation error");
          if (it.opts.discriminator && parentSchema.discriminator)
            return;
          const schArr = schema;
          const valid = gen.let("valid", false);
          const passing = gen.let("passing", null);
          const schValid = gen.name("_valid");
          cxt.setParams({ passing });
          gen.block(validateOneOf);
          cxt.result(valid, () => cxt.reset(), () => cxt.error(true));
          function validateOneOf() {
            schArr.forEach((sch, i) => {
              let schCxt;
              if ((0, util_1.alwaysValidSchema)(it, sch)) {
                gen.var(schValid, true);
              } else {
                schCxt = cxt.subschema({
                  keyword: "oneOf",
                  schemaProp: i,
                  compositeRule: true
                }, schValid);
              }
              if (i > 0) {
                gen.if((0, codegen_1._)`${schValid} && ${valid}`).assign(valid, false).assign(passing, (0, codegen_1._)`[${passing}, ${i}]`).else();
              }
              gen.if(schValid, () => {
                gen.assign(valid, true);
                gen.assign(passing, i);
                if (schCxt)
                  cxt.mergeEvaluated(schCxt, codegen_1.Name);
              });
            });
          }
        }
      };
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/vocabularies/applicator/allOf.js
  var require_allOf = __commonJS({
    "node_modules/ajv/dist/vocabularies/applicator/allOf.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var util_1 = require_util();
      var def = {
        keyword: "allOf",
        schemaType: "array",
        code(cxt) {
          const { gen, schema, it } = cxt;
          if (!Array.isArray(schema))
            throw new Error("ajv implementation error");
          const valid = gen.name("valid");
          schema.forEach((sch, i) => {
            if ((0, util_1.alwaysValidSchema)(it, sch))
              return;
            const schCxt = cxt.subschema({ keyword: "allOf", schemaProp: i }, valid);
            cxt.ok(valid);
            cxt.mergeEvaluated(schCxt);
          });
        }
      };
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/vocabularies/applicator/if.js
  var require_if = __commonJS({
    "node_modules/ajv/dist/vocabularies/applicator/if.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var codegen_1 = require_codegen();
      var util_1 = require_util();
      var error = {
        message: ({ params }) => (0, codegen_1.str)`must match "${params.ifClause}" schema`,
        params: ({ params }) => (0, codegen_1._)`{failingKeyword: ${params.ifClause}}`
      };
      var def = {
        keyword: "if",
        schemaType: ["object", "boolean"],
        trackErrors: true,
        error,
        code(cxt) {
          const { gen, parentSchema, it } = cxt;
          if (parentSchema.then === void 0 && parentSchema.else === void 0) {
            (0, util_1.checkStrictMode)(it, '"if" without "then" and "else" is ignored');
          }
          const hasThen = hasSchema(it, "then");
          const hasElse = hasSchema(it, "else");
          if (!hasThen && !hasElse)
            return;
          const valid = gen.let("valid", true);
          const schValid = gen.name("_valid");
          validateIf();
          cxt.reset();
          if (hasThen && hasElse) {
            const ifClause = gen.let("ifClause");
            cxt.setParams({ ifClause });
            gen.if(schValid, validateClause("then", ifClause), validateClause("else", ifClause));
          } else if (hasThen) {
            gen.if(schValid, validateClause("then"));
          } else {
            gen.if((0, codegen_1.not)(schValid), validateClause("else"));
          }
          cxt.pass(valid, () => cxt.error(true));
          function validateIf() {
            const schCxt = cxt.subschema({
              keyword: "if",
              compositeRule: true,
              createErrors: false,
              allErrors: false
            }, schValid);
            cxt.mergeEvaluated(schCxt);
          }
          function validateClause(keyword, ifClause) {
            return () => {
              const schCxt = cxt.subschema({ keyword }, schValid);
              gen.assign(valid, schValid);
              cxt.mergeValidEvaluated(schCxt, valid);
              if (ifClause)
                gen.assign(ifClause, (0, codegen_1._)`${keyword}`);
              else
                cxt.setParams({ ifClause: keyword });
            };
          }
        }
      };
      function hasSchema(it, keyword) {
        const schema = it.schema[keyword];
        return schema !== void 0 && !(0, util_1.alwaysValidSchema)(it, schema);
      }
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/vocabularies/applicator/thenElse.js
  var require_thenElse = __commonJS({
    "node_modules/ajv/dist/vocabularies/applicator/thenElse.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var util_1 = require_util();
      var def = {
        keyword: ["then", "else"],
        schemaType: ["object", "boolean"],
        code({ keyword, parentSchema, it }) {
          if (parentSchema.if === void 0)
            (0, util_1.checkStrictMode)(it, `"${keyword}" without "if" is ignored`);
        }
      };
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/vocabularies/applicator/index.js
  var require_applicator = __commonJS({
    "node_modules/ajv/dist/vocabularies/applicator/index.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var additionalItems_1 = require_additionalItems();
      var prefixItems_1 = require_prefixItems();
      var items_1 = require_items();
      var items2020_1 = require_items2020();
      var contains_1 = require_contains();
      var dependencies_1 = require_dependencies();
      var propertyNames_1 = require_propertyNames();
      var additionalProperties_1 = require_additionalProperties();
      var properties_1 = require_properties();
      var patternProperties_1 = require_patternProperties();
      var not_1 = require_not();
      var anyOf_1 = require_anyOf();
      var oneOf_1 = require_oneOf();
      var allOf_1 = require_allOf();
      var if_1 = require_if();
      var thenElse_1 = require_thenElse();
      function getApplicator(draft2020 = false) {
        const applicator = [
          // any
          not_1.default,
          anyOf_1.default,
          oneOf_1.default,
          allOf_1.default,
          if_1.default,
          thenElse_1.default,
          // object
          propertyNames_1.default,
          additionalProperties_1.default,
          dependencies_1.default,
          properties_1.default,
          patternProperties_1.default
        ];
        if (draft2020)
          applicator.push(prefixItems_1.default, items2020_1.default);
        else
          applicator.push(additionalItems_1.default, items_1.default);
        applicator.push(contains_1.default);
        return applicator;
      }
      exports.default = getApplicator;
    }
  });

  // node_modules/ajv/dist/vocabularies/dynamic/dynamicAnchor.js
  var require_dynamicAnchor = __commonJS({
    "node_modules/ajv/dist/vocabularies/dynamic/dynamicAnchor.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      exports.dynamicAnchor = void 0;
      var codegen_1 = require_codegen();
      var names_1 = require_names();
      var compile_1 = require_compile();
      var ref_1 = require_ref();
      var def = {
        keyword: "$dynamicAnchor",
        schemaType: "string",
        code: (cxt) => dynamicAnchor(cxt, cxt.schema)
      };
      function dynamicAnchor(cxt, anchor) {
        const { gen, it } = cxt;
        it.schemaEnv.root.dynamicAnchors[anchor] = true;
        const v = (0, codegen_1._)`${names_1.default.dynamicAnchors}${(0, codegen_1.getProperty)(anchor)}`;
        const validate = it.errSchemaPath === "#" ? it.validateName : _getValidate(cxt);
        gen.if((0, codegen_1._)`!${v}`, () => gen.assign(v, validate));
      }
      exports.dynamicAnchor = dynamicAnchor;
      function _getValidate(cxt) {
        const { schemaEnv, schema, self } = cxt.it;
        const { root, baseId, localRefs, meta } = schemaEnv.root;
        const { schemaId } = self.opts;
        const sch = new compile_1.SchemaEnv({ schema, schemaId, root, baseId, localRefs, meta });
        compile_1.compileSchema.call(self, sch);
        return (0, ref_1.getValidate)(cxt, sch);
      }
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/vocabularies/dynamic/dynamicRef.js
  var require_dynamicRef = __commonJS({
    "node_modules/ajv/dist/vocabularies/dynamic/dynamicRef.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      exports.dynamicRef = void 0;
      var codegen_1 = require_codegen();
      var names_1 = require_names();
      var ref_1 = require_ref();
      var def = {
        keyword: "$dynamicRef",
        schemaType: "string",
        code: (cxt) => dynamicRef(cxt, cxt.schema)
      };
      function dynamicRef(cxt, ref2) {
        const { gen, keyword, it } = cxt;
        if (ref2[0] !== "#")
          throw new Error(`"${keyword}" only supports hash fragment reference`);
        const anchor = ref2.slice(1);
        if (it.allErrors) {
          _dynamicRef();
        } else {
          const valid = gen.let("valid", false);
          _dynamicRef(valid);
          cxt.ok(valid);
        }
        function _dynamicRef(valid) {
          if (it.schemaEnv.root.dynamicAnchors[anchor]) {
            const v = gen.let("_v", (0, codegen_1._)`${names_1.default.dynamicAnchors}${(0, codegen_1.getProperty)(anchor)}`);
            gen.if(v, _callRef(v, valid), _callRef(it.validateName, valid));
          } else {
            _callRef(it.validateName, valid)();
          }
        }
        function _callRef(validate, valid) {
          return valid ? () => gen.block(() => {
            (0, ref_1.callRef)(cxt, validate);
            gen.let(valid, true);
          }) : () => (0, ref_1.callRef)(cxt, validate);
        }
      }
      exports.dynamicRef = dynamicRef;
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/vocabularies/dynamic/recursiveAnchor.js
  var require_recursiveAnchor = __commonJS({
    "node_modules/ajv/dist/vocabularies/dynamic/recursiveAnchor.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var dynamicAnchor_1 = require_dynamicAnchor();
      var util_1 = require_util();
      var def = {
        keyword: "$recursiveAnchor",
        schemaType: "boolean",
        code(cxt) {
          if (cxt.schema)
            (0, dynamicAnchor_1.dynamicAnchor)(cxt, "");
          else
            (0, util_1.checkStrictMode)(cxt.it, "$recursiveAnchor: false is ignored");
        }
      };
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/vocabularies/dynamic/recursiveRef.js
  var require_recursiveRef = __commonJS({
    "node_modules/ajv/dist/vocabularies/dynamic/recursiveRef.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var dynamicRef_1 = require_dynamicRef();
      var def = {
        keyword: "$recursiveRef",
        schemaType: "string",
        code: (cxt) => (0, dynamicRef_1.dynamicRef)(cxt, cxt.schema)
      };
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/vocabularies/dynamic/index.js
  var require_dynamic = __commonJS({
    "node_modules/ajv/dist/vocabularies/dynamic/index.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var dynamicAnchor_1 = require_dynamicAnchor();
      var dynamicRef_1 = require_dynamicRef();
      var recursiveAnchor_1 = require_recursiveAnchor();
      var recursiveRef_1 = require_recursiveRef();
      var dynamic = [dynamicAnchor_1.default, dynamicRef_1.default, recursiveAnchor_1.default, recursiveRef_1.default];
      exports.default = dynamic;
    }
  });

  // node_modules/ajv/dist/vocabularies/validation/dependentRequired.js
  var require_dependentRequired = __commonJS({
    "node_modules/ajv/dist/vocabularies/validation/dependentRequired.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var dependencies_1 = require_dependencies();
      var def = {
        keyword: "dependentRequired",
        type: "object",
        schemaType: "object",
        error: dependencies_1.error,
        code: (cxt) => (0, dependencies_1.validatePropertyDeps)(cxt)
      };
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/vocabularies/applicator/dependentSchemas.js
  var require_dependentSchemas = __commonJS({
    "node_modules/ajv/dist/vocabularies/applicator/dependentSchemas.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var dependencies_1 = require_dependencies();
      var def = {
        keyword: "dependentSchemas",
        type: "object",
        schemaType: "object",
        code: (cxt) => (0, dependencies_1.validateSchemaDeps)(cxt)
      };
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/vocabularies/validation/limitContains.js
  var require_limitContains = __commonJS({
    "node_modules/ajv/dist/vocabularies/validation/limitContains.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var util_1 = require_util();
      var def = {
        keyword: ["maxContains", "minContains"],
        type: "array",
        schemaType: "number",
        code({ keyword, parentSchema, it }) {
          if (parentSchema.contains === void 0) {
            (0, util_1.checkStrictMode)(it, `"${keyword}" without "contains" is ignored`);
          }
        }
      };
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/vocabularies/next.js
  var require_next = __commonJS({
    "node_modules/ajv/dist/vocabularies/next.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var dependentRequired_1 = require_dependentRequired();
      var dependentSchemas_1 = require_dependentSchemas();
      var limitContains_1 = require_limitContains();
      var next = [dependentRequired_1.default, dependentSchemas_1.default, limitContains_1.default];
      exports.default = next;
    }
  });

  // node_modules/ajv/dist/vocabularies/unevaluated/unevaluatedProperties.js
  var require_unevaluatedProperties = __commonJS({
    "node_modules/ajv/dist/vocabularies/unevaluated/unevaluatedProperties.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var codegen_1 = require_codegen();
      var util_1 = require_util();
      var names_1 = require_names();
      var error = {
        message: "must NOT have unevaluated properties",
        params: ({ params }) => (0, codegen_1._)`{unevaluatedProperty: ${params.unevaluatedProperty}}`
      };
      var def = {
        keyword: "unevaluatedProperties",
        type: "object",
        schemaType: ["boolean", "object"],
        trackErrors: true,
        error,
        code(cxt) {
          const { gen, schema, data, errsCount, it } = cxt;
          if (!errsCount)
            throw new Error("ajv implementation error");
          const { allErrors, props } = it;
          if (props instanceof codegen_1.Name) {
            gen.if((0, codegen_1._)`${props} !== true`, () => gen.forIn("key", data, (key) => gen.if(unevaluatedDynamic(props, key), () => unevaluatedPropCode(key))));
          } else if (props !== true) {
            gen.forIn("key", data, (key) => props === void 0 ? unevaluatedPropCode(key) : gen.if(unevaluatedStatic(props, key), () => unevaluatedPropCode(key)));
          }
          it.props = true;
          cxt.ok((0, codegen_1._)`${errsCount} === ${names_1.default.errors}`);
          function unevaluatedPropCode(key) {
            if (schema === false) {
              cxt.setParams({ unevaluatedProperty: key });
              cxt.error();
              if (!allErrors)
                gen.break();
              return;
            }
            if (!(0, util_1.alwaysValidSchema)(it, schema)) {
              const valid = gen.name("valid");
              cxt.subschema({
                keyword: "unevaluatedProperties",
                dataProp: key,
                dataPropType: util_1.Type.Str
              }, valid);
              if (!allErrors)
                gen.if((0, codegen_1.not)(valid), () => gen.break());
            }
          }
          function unevaluatedDynamic(evaluatedProps, key) {
            return (0, codegen_1._)`!${evaluatedProps} || !${evaluatedProps}[${key}]`;
          }
          function unevaluatedStatic(evaluatedProps, key) {
            const ps = [];
            for (const p in evaluatedProps) {
              if (evaluatedProps[p] === true)
                ps.push((0, codegen_1._)`${key} !== ${p}`);
            }
            return (0, codegen_1.and)(...ps);
          }
        }
      };
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/vocabularies/unevaluated/unevaluatedItems.js
  var require_unevaluatedItems = __commonJS({
    "node_modules/ajv/dist/vocabularies/unevaluated/unevaluatedItems.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var codegen_1 = require_codegen();
      var util_1 = require_util();
      var error = {
        message: ({ params: { len } }) => (0, codegen_1.str)`must NOT have more than ${len} items`,
        params: ({ params: { len } }) => (0, codegen_1._)`{limit: ${len}}`
      };
      var def = {
        keyword: "unevaluatedItems",
        type: "array",
        schemaType: ["boolean", "object"],
        error,
        code(cxt) {
          const { gen, schema, data, it } = cxt;
          const items = it.items || 0;
          if (items === true)
            return;
          const len = gen.const("len", (0, codegen_1._)`${data}.length`);
          if (schema === false) {
            cxt.setParams({ len: items });
            cxt.fail((0, codegen_1._)`${len} > ${items}`);
          } else if (typeof schema == "object" && !(0, util_1.alwaysValidSchema)(it, schema)) {
            const valid = gen.var("valid", (0, codegen_1._)`${len} <= ${items}`);
            gen.if((0, codegen_1.not)(valid), () => validateItems(valid, items));
            cxt.ok(valid);
          }
          it.items = true;
          function validateItems(valid, from) {
            gen.forRange("i", from, len, (i) => {
              cxt.subschema({ keyword: "unevaluatedItems", dataProp: i, dataPropType: util_1.Type.Num }, valid);
              if (!it.allErrors)
                gen.if((0, codegen_1.not)(valid), () => gen.break());
            });
          }
        }
      };
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/vocabularies/unevaluated/index.js
  var require_unevaluated = __commonJS({
    "node_modules/ajv/dist/vocabularies/unevaluated/index.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var unevaluatedProperties_1 = require_unevaluatedProperties();
      var unevaluatedItems_1 = require_unevaluatedItems();
      var unevaluated = [unevaluatedProperties_1.default, unevaluatedItems_1.default];
      exports.default = unevaluated;
    }
  });

  // node_modules/ajv/dist/vocabularies/format/format.js
  var require_format = __commonJS({
    "node_modules/ajv/dist/vocabularies/format/format.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var codegen_1 = require_codegen();
      var error = {
        message: ({ schemaCode }) => (0, codegen_1.str)`must match format "${schemaCode}"`,
        params: ({ schemaCode }) => (0, codegen_1._)`{format: ${schemaCode}}`
      };
      var def = {
        keyword: "format",
        type: ["number", "string"],
        schemaType: "string",
        $data: true,
        error,
        code(cxt, ruleType) {
          const { gen, data, $data, schema, schemaCode, it } = cxt;
          const { opts, errSchemaPath, schemaEnv, self } = it;
          if (!opts.validateFormats)
            return;
          if ($data)
            validate$DataFormat();
          else
            validateFormat();
          function validate$DataFormat() {
            const fmts = gen.scopeValue("formats", {
              ref: self.formats,
              code: opts.code.formats
            });
            const fDef = gen.const("fDef", (0, codegen_1._)`${fmts}[${schemaCode}]`);
            const fType = gen.let("fType");
            const format = gen.let("format");
            gen.if((0, codegen_1._)`typeof ${fDef} == "object" && !(${fDef} instanceof RegExp)`, () => gen.assign(fType, (0, codegen_1._)`${fDef}.type || "string"`).assign(format, (0, codegen_1._)`${fDef}.validate`), () => gen.assign(fType, (0, codegen_1._)`"string"`).assign(format, fDef));
            cxt.fail$data((0, codegen_1.or)(unknownFmt(), invalidFmt()));
            function unknownFmt() {
              if (opts.strictSchema === false)
                return codegen_1.nil;
              return (0, codegen_1._)`${schemaCode} && !${format}`;
            }
            function invalidFmt() {
              const callFormat = schemaEnv.$async ? (0, codegen_1._)`(${fDef}.async ? await ${format}(${data}) : ${format}(${data}))` : (0, codegen_1._)`${format}(${data})`;
              const validData = (0, codegen_1._)`(typeof ${format} == "function" ? ${callFormat} : ${format}.test(${data}))`;
              return (0, codegen_1._)`${format} && ${format} !== true && ${fType} === ${ruleType} && !${validData}`;
            }
          }
          function validateFormat() {
            const formatDef = self.formats[schema];
            if (!formatDef) {
              unknownFormat2();
              return;
            }
            if (formatDef === true)
              return;
            const [fmtType, format, fmtRef] = getFormat(formatDef);
            if (fmtType === ruleType)
              cxt.pass(validCondition());
            function unknownFormat2() {
              if (opts.strictSchema === false) {
                self.logger.warn(unknownMsg());
                return;
              }
              throw new Error(unknownMsg());
              function unknownMsg() {
                return `unknown format "${schema}" ignored in schema at path "${errSchemaPath}"`;
              }
            }
            function getFormat(fmtDef) {
              const code = fmtDef instanceof RegExp ? (0, codegen_1.regexpCode)(fmtDef) : opts.code.formats ? (0, codegen_1._)`${opts.code.formats}${(0, codegen_1.getProperty)(schema)}` : void 0;
              const fmt = gen.scopeValue("formats", { key: schema, ref: fmtDef, code });
              if (typeof fmtDef == "object" && !(fmtDef instanceof RegExp)) {
                return [fmtDef.type || "string", fmtDef.validate, (0, codegen_1._)`${fmt}.validate`];
              }
              return ["string", fmtDef, fmt];
            }
            function validCondition() {
              if (typeof formatDef == "object" && !(formatDef instanceof RegExp) && formatDef.async) {
                if (!schemaEnv.$async)
                  throw new Error("async format in sync schema");
                return (0, codegen_1._)`await ${fmtRef}(${data})`;
              }
              return typeof format == "function" ? (0, codegen_1._)`${fmtRef}(${data})` : (0, codegen_1._)`${fmtRef}.test(${data})`;
            }
          }
        }
      };
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/vocabularies/format/index.js
  var require_format2 = __commonJS({
    "node_modules/ajv/dist/vocabularies/format/index.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var format_1 = require_format();
      var format = [format_1.default];
      exports.default = format;
    }
  });

  // node_modules/ajv/dist/vocabularies/metadata.js
  var require_metadata = __commonJS({
    "node_modules/ajv/dist/vocabularies/metadata.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      exports.contentVocabulary = exports.metadataVocabulary = void 0;
      exports.metadataVocabulary = [
        "title",
        "description",
        "default",
        "deprecated",
        "readOnly",
        "writeOnly",
        "examples"
      ];
      exports.contentVocabulary = [
        "contentMediaType",
        "contentEncoding",
        "contentSchema"
      ];
    }
  });

  // node_modules/ajv/dist/vocabularies/draft2020.js
  var require_draft2020 = __commonJS({
    "node_modules/ajv/dist/vocabularies/draft2020.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var core_1 = require_core2();
      var validation_1 = require_validation();
      var applicator_1 = require_applicator();
      var dynamic_1 = require_dynamic();
      var next_1 = require_next();
      var unevaluated_1 = require_unevaluated();
      var format_1 = require_format2();
      var metadata_1 = require_metadata();
      var draft2020Vocabularies = [
        dynamic_1.default,
        core_1.default,
        validation_1.default,
        (0, applicator_1.default)(true),
        format_1.default,
        metadata_1.metadataVocabulary,
        metadata_1.contentVocabulary,
        next_1.default,
        unevaluated_1.default
      ];
      exports.default = draft2020Vocabularies;
    }
  });

  // node_modules/ajv/dist/vocabularies/discriminator/types.js
  var require_types = __commonJS({
    "node_modules/ajv/dist/vocabularies/discriminator/types.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      exports.DiscrError = void 0;
      var DiscrError;
      (function(DiscrError2) {
        DiscrError2["Tag"] = "tag";
        DiscrError2["Mapping"] = "mapping";
      })(DiscrError || (exports.DiscrError = DiscrError = {}));
    }
  });

  // node_modules/ajv/dist/vocabularies/discriminator/index.js
  var require_discriminator = __commonJS({
    "node_modules/ajv/dist/vocabularies/discriminator/index.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var codegen_1 = require_codegen();
      var types_1 = require_types();
      var compile_1 = require_compile();
      var ref_error_1 = require_ref_error();
      var util_1 = require_util();
      var error = {
        message: ({ params: { discrError, tagName } }) => discrError === types_1.DiscrError.Tag ? `tag "${tagName}" must be string` : `value of tag "${tagName}" must be in oneOf`,
        params: ({ params: { discrError, tag, tagName } }) => (0, codegen_1._)`{error: ${discrError}, tag: ${tagName}, tagValue: ${tag}}`
      };
      var def = {
        keyword: "discriminator",
        type: "object",
        schemaType: "object",
        error,
        code(cxt) {
          const { gen, data, schema, parentSchema, it } = cxt;
          const { oneOf } = parentSchema;
          if (!it.opts.discriminator) {
            throw new Error("discriminator: requires discriminator option");
          }
          const tagName = schema.propertyName;
          if (typeof tagName != "string")
            throw new Error("discriminator: requires propertyName");
          if (schema.mapping)
            throw new Error("discriminator: mapping is not supported");
          if (!oneOf)
            throw new Error("discriminator: requires oneOf keyword");
          const valid = gen.let("valid", false);
          const tag = gen.const("tag", (0, codegen_1._)`${data}${(0, codegen_1.getProperty)(tagName)}`);
          gen.if((0, codegen_1._)`typeof ${tag} == "string"`, () => validateMapping(), () => cxt.error(false, { discrError: types_1.DiscrError.Tag, tag, tagName }));
          cxt.ok(valid);
          function validateMapping() {
            const mapping = getMapping();
            gen.if(false);
            for (const tagValue in mapping) {
              gen.elseIf((0, codegen_1._)`${tag} === ${tagValue}`);
              gen.assign(valid, applyTagSchema(mapping[tagValue]));
            }
            gen.else();
            cxt.error(false, { discrError: types_1.DiscrError.Mapping, tag, tagName });
            gen.endIf();
          }
          function applyTagSchema(schemaProp) {
            const _valid = gen.name("valid");
            const schCxt = cxt.subschema({ keyword: "oneOf", schemaProp }, _valid);
            cxt.mergeEvaluated(schCxt, codegen_1.Name);
            return _valid;
          }
          function getMapping() {
            var _a;
            const oneOfMapping = {};
            const topRequired = hasRequired(parentSchema);
            let tagRequired = true;
            for (let i = 0; i < oneOf.length; i++) {
              let sch = oneOf[i];
              if ((sch === null || sch === void 0 ? void 0 : sch.$ref) && !(0, util_1.schemaHasRulesButRef)(sch, it.self.RULES)) {
                const ref2 = sch.$ref;
                sch = compile_1.resolveRef.call(it.self, it.schemaEnv.root, it.baseId, ref2);
                if (sch instanceof compile_1.SchemaEnv)
                  sch = sch.schema;
                if (sch === void 0)
                  throw new ref_error_1.default(it.opts.uriResolver, it.baseId, ref2);
              }
              const propSch = (_a = sch === null || sch === void 0 ? void 0 : sch.properties) === null || _a === void 0 ? void 0 : _a[tagName];
              if (typeof propSch != "object") {
                throw new Error(`discriminator: oneOf subschemas (or referenced schemas) must have "properties/${tagName}"`);
              }
              tagRequired = tagRequired && (topRequired || hasRequired(sch));
              addMappings(propSch, i);
            }
            if (!tagRequired)
              throw new Error(`discriminator: "${tagName}" must be required`);
            return oneOfMapping;
            function hasRequired({ required }) {
              return Array.isArray(required) && required.includes(tagName);
            }
            function addMappings(sch, i) {
              if (sch.const) {
                addMapping(sch.const, i);
              } else if (sch.enum) {
                for (const tagValue of sch.enum) {
                  addMapping(tagValue, i);
                }
              } else {
                throw new Error(`discriminator: "properties/${tagName}" must have "const" or "enum"`);
              }
            }
            function addMapping(tagValue, i) {
              if (typeof tagValue != "string" || tagValue in oneOfMapping) {
                throw new Error(`discriminator: "${tagName}" values must be unique strings`);
              }
              oneOfMapping[tagValue] = i;
            }
          }
        }
      };
      exports.default = def;
    }
  });

  // node_modules/ajv/dist/refs/json-schema-2020-12/schema.json
  var require_schema = __commonJS({
    "node_modules/ajv/dist/refs/json-schema-2020-12/schema.json"(exports, module) {
      module.exports = {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        $id: "https://json-schema.org/draft/2020-12/schema",
        $vocabulary: {
          "https://json-schema.org/draft/2020-12/vocab/core": true,
          "https://json-schema.org/draft/2020-12/vocab/applicator": true,
          "https://json-schema.org/draft/2020-12/vocab/unevaluated": true,
          "https://json-schema.org/draft/2020-12/vocab/validation": true,
          "https://json-schema.org/draft/2020-12/vocab/meta-data": true,
          "https://json-schema.org/draft/2020-12/vocab/format-annotation": true,
          "https://json-schema.org/draft/2020-12/vocab/content": true
        },
        $dynamicAnchor: "meta",
        title: "Core and Validation specifications meta-schema",
        allOf: [
          { $ref: "meta/core" },
          { $ref: "meta/applicator" },
          { $ref: "meta/unevaluated" },
          { $ref: "meta/validation" },
          { $ref: "meta/meta-data" },
          { $ref: "meta/format-annotation" },
          { $ref: "meta/content" }
        ],
        type: ["object", "boolean"],
        $comment: "This meta-schema also defines keywords that have appeared in previous drafts in order to prevent incompatible extensions as they remain in common use.",
        properties: {
          definitions: {
            $comment: '"definitions" has been replaced by "$defs".',
            type: "object",
            additionalProperties: { $dynamicRef: "#meta" },
            deprecated: true,
            default: {}
          },
          dependencies: {
            $comment: '"dependencies" has been split and replaced by "dependentSchemas" and "dependentRequired" in order to serve their differing semantics.',
            type: "object",
            additionalProperties: {
              anyOf: [{ $dynamicRef: "#meta" }, { $ref: "meta/validation#/$defs/stringArray" }]
            },
            deprecated: true,
            default: {}
          },
          $recursiveAnchor: {
            $comment: '"$recursiveAnchor" has been replaced by "$dynamicAnchor".',
            $ref: "meta/core#/$defs/anchorString",
            deprecated: true
          },
          $recursiveRef: {
            $comment: '"$recursiveRef" has been replaced by "$dynamicRef".',
            $ref: "meta/core#/$defs/uriReferenceString",
            deprecated: true
          }
        }
      };
    }
  });

  // node_modules/ajv/dist/refs/json-schema-2020-12/meta/applicator.json
  var require_applicator2 = __commonJS({
    "node_modules/ajv/dist/refs/json-schema-2020-12/meta/applicator.json"(exports, module) {
      module.exports = {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        $id: "https://json-schema.org/draft/2020-12/meta/applicator",
        $vocabulary: {
          "https://json-schema.org/draft/2020-12/vocab/applicator": true
        },
        $dynamicAnchor: "meta",
        title: "Applicator vocabulary meta-schema",
        type: ["object", "boolean"],
        properties: {
          prefixItems: { $ref: "#/$defs/schemaArray" },
          items: { $dynamicRef: "#meta" },
          contains: { $dynamicRef: "#meta" },
          additionalProperties: { $dynamicRef: "#meta" },
          properties: {
            type: "object",
            additionalProperties: { $dynamicRef: "#meta" },
            default: {}
          },
          patternProperties: {
            type: "object",
            additionalProperties: { $dynamicRef: "#meta" },
            propertyNames: { format: "regex" },
            default: {}
          },
          dependentSchemas: {
            type: "object",
            additionalProperties: { $dynamicRef: "#meta" },
            default: {}
          },
          propertyNames: { $dynamicRef: "#meta" },
          if: { $dynamicRef: "#meta" },
          then: { $dynamicRef: "#meta" },
          else: { $dynamicRef: "#meta" },
          allOf: { $ref: "#/$defs/schemaArray" },
          anyOf: { $ref: "#/$defs/schemaArray" },
          oneOf: { $ref: "#/$defs/schemaArray" },
          not: { $dynamicRef: "#meta" }
        },
        $defs: {
          schemaArray: {
            type: "array",
            minItems: 1,
            items: { $dynamicRef: "#meta" }
          }
        }
      };
    }
  });

  // node_modules/ajv/dist/refs/json-schema-2020-12/meta/unevaluated.json
  var require_unevaluated2 = __commonJS({
    "node_modules/ajv/dist/refs/json-schema-2020-12/meta/unevaluated.json"(exports, module) {
      module.exports = {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        $id: "https://json-schema.org/draft/2020-12/meta/unevaluated",
        $vocabulary: {
          "https://json-schema.org/draft/2020-12/vocab/unevaluated": true
        },
        $dynamicAnchor: "meta",
        title: "Unevaluated applicator vocabulary meta-schema",
        type: ["object", "boolean"],
        properties: {
          unevaluatedItems: { $dynamicRef: "#meta" },
          unevaluatedProperties: { $dynamicRef: "#meta" }
        }
      };
    }
  });

  // node_modules/ajv/dist/refs/json-schema-2020-12/meta/content.json
  var require_content = __commonJS({
    "node_modules/ajv/dist/refs/json-schema-2020-12/meta/content.json"(exports, module) {
      module.exports = {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        $id: "https://json-schema.org/draft/2020-12/meta/content",
        $vocabulary: {
          "https://json-schema.org/draft/2020-12/vocab/content": true
        },
        $dynamicAnchor: "meta",
        title: "Content vocabulary meta-schema",
        type: ["object", "boolean"],
        properties: {
          contentEncoding: { type: "string" },
          contentMediaType: { type: "string" },
          contentSchema: { $dynamicRef: "#meta" }
        }
      };
    }
  });

  // node_modules/ajv/dist/refs/json-schema-2020-12/meta/core.json
  var require_core3 = __commonJS({
    "node_modules/ajv/dist/refs/json-schema-2020-12/meta/core.json"(exports, module) {
      module.exports = {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        $id: "https://json-schema.org/draft/2020-12/meta/core",
        $vocabulary: {
          "https://json-schema.org/draft/2020-12/vocab/core": true
        },
        $dynamicAnchor: "meta",
        title: "Core vocabulary meta-schema",
        type: ["object", "boolean"],
        properties: {
          $id: {
            $ref: "#/$defs/uriReferenceString",
            $comment: "Non-empty fragments not allowed.",
            pattern: "^[^#]*#?$"
          },
          $schema: { $ref: "#/$defs/uriString" },
          $ref: { $ref: "#/$defs/uriReferenceString" },
          $anchor: { $ref: "#/$defs/anchorString" },
          $dynamicRef: { $ref: "#/$defs/uriReferenceString" },
          $dynamicAnchor: { $ref: "#/$defs/anchorString" },
          $vocabulary: {
            type: "object",
            propertyNames: { $ref: "#/$defs/uriString" },
            additionalProperties: {
              type: "boolean"
            }
          },
          $comment: {
            type: "string"
          },
          $defs: {
            type: "object",
            additionalProperties: { $dynamicRef: "#meta" }
          }
        },
        $defs: {
          anchorString: {
            type: "string",
            pattern: "^[A-Za-z_][-A-Za-z0-9._]*$"
          },
          uriString: {
            type: "string",
            format: "uri"
          },
          uriReferenceString: {
            type: "string",
            format: "uri-reference"
          }
        }
      };
    }
  });

  // node_modules/ajv/dist/refs/json-schema-2020-12/meta/format-annotation.json
  var require_format_annotation = __commonJS({
    "node_modules/ajv/dist/refs/json-schema-2020-12/meta/format-annotation.json"(exports, module) {
      module.exports = {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        $id: "https://json-schema.org/draft/2020-12/meta/format-annotation",
        $vocabulary: {
          "https://json-schema.org/draft/2020-12/vocab/format-annotation": true
        },
        $dynamicAnchor: "meta",
        title: "Format vocabulary meta-schema for annotation results",
        type: ["object", "boolean"],
        properties: {
          format: { type: "string" }
        }
      };
    }
  });

  // node_modules/ajv/dist/refs/json-schema-2020-12/meta/meta-data.json
  var require_meta_data = __commonJS({
    "node_modules/ajv/dist/refs/json-schema-2020-12/meta/meta-data.json"(exports, module) {
      module.exports = {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        $id: "https://json-schema.org/draft/2020-12/meta/meta-data",
        $vocabulary: {
          "https://json-schema.org/draft/2020-12/vocab/meta-data": true
        },
        $dynamicAnchor: "meta",
        title: "Meta-data vocabulary meta-schema",
        type: ["object", "boolean"],
        properties: {
          title: {
            type: "string"
          },
          description: {
            type: "string"
          },
          default: true,
          deprecated: {
            type: "boolean",
            default: false
          },
          readOnly: {
            type: "boolean",
            default: false
          },
          writeOnly: {
            type: "boolean",
            default: false
          },
          examples: {
            type: "array",
            items: true
          }
        }
      };
    }
  });

  // node_modules/ajv/dist/refs/json-schema-2020-12/meta/validation.json
  var require_validation2 = __commonJS({
    "node_modules/ajv/dist/refs/json-schema-2020-12/meta/validation.json"(exports, module) {
      module.exports = {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        $id: "https://json-schema.org/draft/2020-12/meta/validation",
        $vocabulary: {
          "https://json-schema.org/draft/2020-12/vocab/validation": true
        },
        $dynamicAnchor: "meta",
        title: "Validation vocabulary meta-schema",
        type: ["object", "boolean"],
        properties: {
          type: {
            anyOf: [
              { $ref: "#/$defs/simpleTypes" },
              {
                type: "array",
                items: { $ref: "#/$defs/simpleTypes" },
                minItems: 1,
                uniqueItems: true
              }
            ]
          },
          const: true,
          enum: {
            type: "array",
            items: true
          },
          multipleOf: {
            type: "number",
            exclusiveMinimum: 0
          },
          maximum: {
            type: "number"
          },
          exclusiveMaximum: {
            type: "number"
          },
          minimum: {
            type: "number"
          },
          exclusiveMinimum: {
            type: "number"
          },
          maxLength: { $ref: "#/$defs/nonNegativeInteger" },
          minLength: { $ref: "#/$defs/nonNegativeIntegerDefault0" },
          pattern: {
            type: "string",
            format: "regex"
          },
          maxItems: { $ref: "#/$defs/nonNegativeInteger" },
          minItems: { $ref: "#/$defs/nonNegativeIntegerDefault0" },
          uniqueItems: {
            type: "boolean",
            default: false
          },
          maxContains: { $ref: "#/$defs/nonNegativeInteger" },
          minContains: {
            $ref: "#/$defs/nonNegativeInteger",
            default: 1
          },
          maxProperties: { $ref: "#/$defs/nonNegativeInteger" },
          minProperties: { $ref: "#/$defs/nonNegativeIntegerDefault0" },
          required: { $ref: "#/$defs/stringArray" },
          dependentRequired: {
            type: "object",
            additionalProperties: {
              $ref: "#/$defs/stringArray"
            }
          }
        },
        $defs: {
          nonNegativeInteger: {
            type: "integer",
            minimum: 0
          },
          nonNegativeIntegerDefault0: {
            $ref: "#/$defs/nonNegativeInteger",
            default: 0
          },
          simpleTypes: {
            enum: ["array", "boolean", "integer", "null", "number", "object", "string"]
          },
          stringArray: {
            type: "array",
            items: { type: "string" },
            uniqueItems: true,
            default: []
          }
        }
      };
    }
  });

  // node_modules/ajv/dist/refs/json-schema-2020-12/index.js
  var require_json_schema_2020_12 = __commonJS({
    "node_modules/ajv/dist/refs/json-schema-2020-12/index.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      var metaSchema = require_schema();
      var applicator = require_applicator2();
      var unevaluated = require_unevaluated2();
      var content2 = require_content();
      var core = require_core3();
      var format = require_format_annotation();
      var metadata2 = require_meta_data();
      var validation = require_validation2();
      var META_SUPPORT_DATA = ["/properties"];
      function addMetaSchema2020($data) {
        ;
        [
          metaSchema,
          applicator,
          unevaluated,
          content2,
          core,
          with$data(this, format),
          metadata2,
          with$data(this, validation)
        ].forEach((sch) => this.addMetaSchema(sch, void 0, false));
        return this;
        function with$data(ajv, sch) {
          return $data ? ajv.$dataMetaSchema(sch, META_SUPPORT_DATA) : sch;
        }
      }
      exports.default = addMetaSchema2020;
    }
  });

  // node_modules/ajv/dist/2020.js
  var require__ = __commonJS({
    "node_modules/ajv/dist/2020.js"(exports, module) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      exports.MissingRefError = exports.ValidationError = exports.CodeGen = exports.Name = exports.nil = exports.stringify = exports.str = exports._ = exports.KeywordCxt = exports.Ajv2020 = void 0;
      var core_1 = require_core();
      var draft2020_1 = require_draft2020();
      var discriminator_1 = require_discriminator();
      var json_schema_2020_12_1 = require_json_schema_2020_12();
      var META_SCHEMA_ID = "https://json-schema.org/draft/2020-12/schema";
      var Ajv20202 = class extends core_1.default {
        constructor(opts = {}) {
          super({
            ...opts,
            dynamicRef: true,
            next: true,
            unevaluated: true
          });
        }
        _addVocabularies() {
          super._addVocabularies();
          draft2020_1.default.forEach((v) => this.addVocabulary(v));
          if (this.opts.discriminator)
            this.addKeyword(discriminator_1.default);
        }
        _addDefaultMetaSchema() {
          super._addDefaultMetaSchema();
          const { $data, meta } = this.opts;
          if (!meta)
            return;
          json_schema_2020_12_1.default.call(this, $data);
          this.refs["http://json-schema.org/schema"] = META_SCHEMA_ID;
        }
        defaultMeta() {
          return this.opts.defaultMeta = super.defaultMeta() || (this.getSchema(META_SCHEMA_ID) ? META_SCHEMA_ID : void 0);
        }
      };
      exports.Ajv2020 = Ajv20202;
      module.exports = exports = Ajv20202;
      module.exports.Ajv2020 = Ajv20202;
      Object.defineProperty(exports, "__esModule", { value: true });
      exports.default = Ajv20202;
      var validate_1 = require_validate();
      Object.defineProperty(exports, "KeywordCxt", { enumerable: true, get: function() {
        return validate_1.KeywordCxt;
      } });
      var codegen_1 = require_codegen();
      Object.defineProperty(exports, "_", { enumerable: true, get: function() {
        return codegen_1._;
      } });
      Object.defineProperty(exports, "str", { enumerable: true, get: function() {
        return codegen_1.str;
      } });
      Object.defineProperty(exports, "stringify", { enumerable: true, get: function() {
        return codegen_1.stringify;
      } });
      Object.defineProperty(exports, "nil", { enumerable: true, get: function() {
        return codegen_1.nil;
      } });
      Object.defineProperty(exports, "Name", { enumerable: true, get: function() {
        return codegen_1.Name;
      } });
      Object.defineProperty(exports, "CodeGen", { enumerable: true, get: function() {
        return codegen_1.CodeGen;
      } });
      var validation_error_1 = require_validation_error();
      Object.defineProperty(exports, "ValidationError", { enumerable: true, get: function() {
        return validation_error_1.default;
      } });
      var ref_error_1 = require_ref_error();
      Object.defineProperty(exports, "MissingRefError", { enumerable: true, get: function() {
        return ref_error_1.default;
      } });
    }
  });

  // node_modules/ajv-formats/dist/formats.js
  var require_formats = __commonJS({
    "node_modules/ajv-formats/dist/formats.js"(exports) {
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      exports.formatNames = exports.fastFormats = exports.fullFormats = void 0;
      function fmtDef(validate, compare) {
        return { validate, compare };
      }
      exports.fullFormats = {
        // date: http://tools.ietf.org/html/rfc3339#section-5.6
        date: fmtDef(date, compareDate),
        // date-time: http://tools.ietf.org/html/rfc3339#section-5.6
        time: fmtDef(getTime(true), compareTime),
        "date-time": fmtDef(getDateTime(true), compareDateTime),
        "iso-time": fmtDef(getTime(), compareIsoTime),
        "iso-date-time": fmtDef(getDateTime(), compareIsoDateTime),
        // duration: https://tools.ietf.org/html/rfc3339#appendix-A
        duration: /^P(?!$)((\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?|(\d+W)?)$/,
        uri,
        "uri-reference": /^(?:[a-z][a-z0-9+\-.]*:)?(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'"()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-f]{2})*)*)?(?:\?(?:[a-z0-9\-._~!$&'"()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'"()*+,;=:@/?]|%[0-9a-f]{2})*)?$/i,
        // uri-template: https://tools.ietf.org/html/rfc6570
        "uri-template": /^(?:(?:[^\x00-\x20"'<>%\\^`{|}]|%[0-9a-f]{2})|\{[+#./;?&=,!@|]?(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\*)?(?:,(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\*)?)*\})*$/i,
        // For the source: https://gist.github.com/dperini/729294
        // For test cases: https://mathiasbynens.be/demo/url-regex
        url: /^(?:https?|ftp):\/\/(?:\S+(?::\S*)?@)?(?:(?!(?:10|127)(?:\.\d{1,3}){3})(?!(?:169\.254|192\.168)(?:\.\d{1,3}){2})(?!172\.(?:1[6-9]|2\d|3[0-1])(?:\.\d{1,3}){2})(?:[1-9]\d?|1\d\d|2[01]\d|22[0-3])(?:\.(?:1?\d{1,2}|2[0-4]\d|25[0-5])){2}(?:\.(?:[1-9]\d?|1\d\d|2[0-4]\d|25[0-4]))|(?:(?:[a-z0-9\u{00a1}-\u{ffff}]+-)*[a-z0-9\u{00a1}-\u{ffff}]+)(?:\.(?:[a-z0-9\u{00a1}-\u{ffff}]+-)*[a-z0-9\u{00a1}-\u{ffff}]+)*(?:\.(?:[a-z\u{00a1}-\u{ffff}]{2,})))(?::\d{2,5})?(?:\/[^\s]*)?$/iu,
        email: /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i,
        hostname: /^(?=.{1,253}\.?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[-0-9a-z]{0,61}[0-9a-z])?)*\.?$/i,
        // optimized https://www.safaribooksonline.com/library/view/regular-expressions-cookbook/9780596802837/ch07s16.html
        ipv4: /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/,
        ipv6: /^((([0-9a-f]{1,4}:){7}([0-9a-f]{1,4}|:))|(([0-9a-f]{1,4}:){6}(:[0-9a-f]{1,4}|((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})|:))|(([0-9a-f]{1,4}:){5}(((:[0-9a-f]{1,4}){1,2})|:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})|:))|(([0-9a-f]{1,4}:){4}(((:[0-9a-f]{1,4}){1,3})|((:[0-9a-f]{1,4})?:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){3}(((:[0-9a-f]{1,4}){1,4})|((:[0-9a-f]{1,4}){0,2}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){2}(((:[0-9a-f]{1,4}){1,5})|((:[0-9a-f]{1,4}){0,3}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){1}(((:[0-9a-f]{1,4}){1,6})|((:[0-9a-f]{1,4}){0,4}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(:(((:[0-9a-f]{1,4}){1,7})|((:[0-9a-f]{1,4}){0,5}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:)))$/i,
        regex,
        // uuid: http://tools.ietf.org/html/rfc4122
        uuid: /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i,
        // JSON-pointer: https://tools.ietf.org/html/rfc6901
        // uri fragment: https://tools.ietf.org/html/rfc3986#appendix-A
        "json-pointer": /^(?:\/(?:[^~/]|~0|~1)*)*$/,
        "json-pointer-uri-fragment": /^#(?:\/(?:[a-z0-9_\-.!$&'()*+,;:=@]|%[0-9a-f]{2}|~0|~1)*)*$/i,
        // relative JSON-pointer: http://tools.ietf.org/html/draft-luff-relative-json-pointer-00
        "relative-json-pointer": /^(?:0|[1-9][0-9]*)(?:#|(?:\/(?:[^~/]|~0|~1)*)*)$/,
        // the following formats are used by the openapi specification: https://spec.openapis.org/oas/v3.0.0#data-types
        // byte: https://github.com/miguelmota/is-base64
        byte,
        // signed 32 bit integer
        int32: { type: "number", validate: validateInt32 },
        // signed 64 bit integer
        int64: { type: "number", validate: validateInt64 },
        // C-type float
        float: { type: "number", validate: validateNumber },
        // C-type double
        double: { type: "number", validate: validateNumber },
        // hint to the UI to hide input strings
        password: true,
        // unchecked string payload
        binary: true
      };
      exports.fastFormats = {
        ...exports.fullFormats,
        date: fmtDef(/^\d\d\d\d-[0-1]\d-[0-3]\d$/, compareDate),
        time: fmtDef(/^(?:[0-2]\d:[0-5]\d:[0-5]\d|23:59:60)(?:\.\d+)?(?:z|[+-]\d\d(?::?\d\d)?)$/i, compareTime),
        "date-time": fmtDef(/^\d\d\d\d-[0-1]\d-[0-3]\dt(?:[0-2]\d:[0-5]\d:[0-5]\d|23:59:60)(?:\.\d+)?(?:z|[+-]\d\d(?::?\d\d)?)$/i, compareDateTime),
        "iso-time": fmtDef(/^(?:[0-2]\d:[0-5]\d:[0-5]\d|23:59:60)(?:\.\d+)?(?:z|[+-]\d\d(?::?\d\d)?)?$/i, compareIsoTime),
        "iso-date-time": fmtDef(/^\d\d\d\d-[0-1]\d-[0-3]\d[t\s](?:[0-2]\d:[0-5]\d:[0-5]\d|23:59:60)(?:\.\d+)?(?:z|[+-]\d\d(?::?\d\d)?)?$/i, compareIsoDateTime),
        // uri: https://github.com/mafintosh/is-my-json-valid/blob/master/formats.js
        uri: /^(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/)?[^\s]*$/i,
        "uri-reference": /^(?:(?:[a-z][a-z0-9+\-.]*:)?\/?\/)?(?:[^\\\s#][^\s#]*)?(?:#[^\\\s]*)?$/i,
        // email (sources from jsen validator):
        // http://stackoverflow.com/questions/201323/using-a-regular-expression-to-validate-an-email-address#answer-8829363
        // http://www.w3.org/TR/html5/forms.html#valid-e-mail-address (search for 'wilful violation')
        email: /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i
      };
      exports.formatNames = Object.keys(exports.fullFormats);
      function isLeapYear(year) {
        return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
      }
      var DATE2 = /^(\d\d\d\d)-(\d\d)-(\d\d)$/;
      var DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
      function date(str) {
        const matches = DATE2.exec(str);
        if (!matches)
          return false;
        const year = +matches[1];
        const month = +matches[2];
        const day = +matches[3];
        return month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && isLeapYear(year) ? 29 : DAYS[month]);
      }
      function compareDate(d1, d2) {
        if (!(d1 && d2))
          return void 0;
        if (d1 > d2)
          return 1;
        if (d1 < d2)
          return -1;
        return 0;
      }
      var TIME2 = /^(\d\d):(\d\d):(\d\d(?:\.\d+)?)(z|([+-])(\d\d)(?::?(\d\d))?)?$/i;
      function getTime(strictTimeZone) {
        return function time(str) {
          const matches = TIME2.exec(str);
          if (!matches)
            return false;
          const hr = +matches[1];
          const min = +matches[2];
          const sec = +matches[3];
          const tz = matches[4];
          const tzSign = matches[5] === "-" ? -1 : 1;
          const tzH = +(matches[6] || 0);
          const tzM = +(matches[7] || 0);
          if (tzH > 23 || tzM > 59 || strictTimeZone && !tz)
            return false;
          if (hr <= 23 && min <= 59 && sec < 60)
            return true;
          const utcMin = min - tzM * tzSign;
          const utcHr = hr - tzH * tzSign - (utcMin < 0 ? 1 : 0);
          return (utcHr === 23 || utcHr === -1) && (utcMin === 59 || utcMin === -1) && sec < 61;
        };
      }
      function compareTime(s1, s2) {
        if (!(s1 && s2))
          return void 0;
        const t1 = (/* @__PURE__ */ new Date("2020-01-01T" + s1)).valueOf();
        const t2 = (/* @__PURE__ */ new Date("2020-01-01T" + s2)).valueOf();
        if (!(t1 && t2))
          return void 0;
        return t1 - t2;
      }
      function compareIsoTime(t1, t2) {
        if (!(t1 && t2))
          return void 0;
        const a1 = TIME2.exec(t1);
        const a2 = TIME2.exec(t2);
        if (!(a1 && a2))
          return void 0;
        t1 = a1[1] + a1[2] + a1[3];
        t2 = a2[1] + a2[2] + a2[3];
        if (t1 > t2)
          return 1;
        if (t1 < t2)
          return -1;
        return 0;
      }
      var DATE_TIME_SEPARATOR = /t|\s/i;
      function getDateTime(strictTimeZone) {
        const time = getTime(strictTimeZone);
        return function date_time(str) {
          const dateTime = str.split(DATE_TIME_SEPARATOR);
          return dateTime.length === 2 && date(dateTime[0]) && time(dateTime[1]);
        };
      }
      function compareDateTime(dt1, dt2) {
        if (!(dt1 && dt2))
          return void 0;
        const d1 = new Date(dt1).valueOf();
        const d2 = new Date(dt2).valueOf();
        if (!(d1 && d2))
          return void 0;
        return d1 - d2;
      }
      function compareIsoDateTime(dt1, dt2) {
        if (!(dt1 && dt2))
          return void 0;
        const [d1, t1] = dt1.split(DATE_TIME_SEPARATOR);
        const [d2, t2] = dt2.split(DATE_TIME_SEPARATOR);
        const res = compareDate(d1, d2);
        if (res === void 0)
          return void 0;
        return res || compareTime(t1, t2);
      }
      var NOT_URI_FRAGMENT = /\/|:/;
      var URI = /^(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\?(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$/i;
      function uri(str) {
        return NOT_URI_FRAGMENT.test(str) && URI.test(str);
      }
      var BYTE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/gm;
      function byte(str) {
        BYTE.lastIndex = 0;
        return BYTE.test(str);
      }
      var MIN_INT32 = -(2 ** 31);
      var MAX_INT32 = 2 ** 31 - 1;
      function validateInt32(value) {
        return Number.isInteger(value) && value <= MAX_INT32 && value >= MIN_INT32;
      }
      function validateInt64(value) {
        return Number.isInteger(value);
      }
      function validateNumber() {
        return true;
      }
      var Z_ANCHOR = /[^\\]\\Z/;
      function regex(str) {
        if (Z_ANCHOR.test(str))
          return false;
        try {
          new RegExp(str);
          return true;
        } catch (e) {
          return false;
        }
      }
    }
  });

  // src/extension/index.ts
  var index_exports = {};
  __export(index_exports, {
    api: () => api
  });

  // src/extension/db.ts
  var plans = /* @__PURE__ */ new Map();
  function plan(query) {
    let p = plans.get(query);
    if (!p) {
      p = plv8.prepare(query.sql, query.types);
      plans.set(query, p);
    }
    return p;
  }
  function rows(query, ...args) {
    const result = plan(query).execute(args);
    return Array.isArray(result) ? result : [];
  }
  function one(query, ...args) {
    return rows(query, ...args)[0];
  }
  function run(sql, ...args) {
    const result = plv8.execute(sql, args);
    return Array.isArray(result) ? result : [];
  }

  // src/queue/locks.ts
  var SYNC_WAITER_LOCK = 1937138551;
  var REQUEST_LOCK = 1937138546;
  var requestLockKeys = (id) => `${REQUEST_LOCK}, pg_catalog.hashtext(${id}::text)`;

  // src/extension/queries.ts
  var q = (sql, ...types) => ({ sql, types });
  var SESSION_ROLE = `(CASE current_setting('role') WHEN 'none' THEN session_user ELSE current_setting('role')::name END)`;
  var SESSION_ROLE_ID = `(SELECT r.oid FROM pg_roles r WHERE r.rolname = ${SESSION_ROLE})`;
  var REQUEST_KEY = requestLockKeys("$1");
  var LIMIT_COLUMNS = (role) => `(SELECT c.value FROM public.svc_config c WHERE c.name = 'queue_limits') AS queue_limits,
   (SELECT jsonb_build_object('max_pending', l.max_pending, 'max_stored_bytes', l.max_stored_bytes) FROM public.svc_role_limits l WHERE l.role_name = ${role}) AS role_limits`;
  var CAPACITY_COLUMNS = (role) => `b.depth AS bound, b.last_seq, current_setting('svc.max_queue_size', true) AS max_queue_size, ${LIMIT_COLUMNS(role)}`;
  var STORED_BYTES = (parameters) => `pg_column_size(${parameters}) + coalesce(octet_length($3), 0)`;
  var qualifiedRelation = (column) => `(SELECT format('%I.%I', n.nspname, c.relname) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = ${column})`;
  var QUERIES = {
    setting: q(`SELECT current_setting($1, true) AS value`, "text"),
    promptSettings: q(`SELECT current_setting('svc.prompt_format', true) AS prompt_format, current_setting('svc.system_prompt', true) AS system_prompt`),
    intervalSeconds: q(`SELECT extract(epoch FROM $1::interval)::float8 AS seconds`, "text"),
    // The model of a request of function $1 (generate, embed, rerank; settings.ts requestModel, the rule
    // of docs/models.md): svc.model, else the function's own setting (svc.<function>_model; for rerank,
    // svc.embed_model next), else for embed and rerank the model named 'embed' where one is declared that
    // serves it, else 'default'; with where the name came from, what svc_models says it serves (NULL:
    // undeclared) and the context it is served with.
    requestModel: q(
      `WITH given AS (
       SELECT * FROM (VALUES
         (1, nullif(btrim(current_setting('svc.model', true)), ''), 'svc.model'),
         (2, nullif(btrim(current_setting('svc.' || $1 || '_model', true)), ''), 'svc.' || $1 || '_model'),
         (3, CASE WHEN $1 = 'rerank' THEN nullif(btrim(current_setting('svc.embed_model', true)), '') END, 'svc.embed_model'),
         (4, (SELECT e.name FROM public.svc_models e WHERE e.name = 'embed' AND $1 IN ('embed', 'rerank') AND $1 = ANY (e.serves)), 'the embedding model, named embed'),
         (5, 'default', 'the default')) AS g(rank, name, source)
       WHERE g.name IS NOT NULL ORDER BY g.rank LIMIT 1
     )
     SELECT s.name, s.source, m.serves, m.context_size FROM given s LEFT JOIN public.svc_models m ON m.name = s.name`,
      "text"
    ),
    modelServes: q(`SELECT serves, dimension FROM public.svc_models WHERE name = $1`, "text"),
    // The exact count, and the last submission number read before it (so that count plus the numbers given out since bounds the queue).
    queueDepth: q(`SELECT s.last_value AS last_seq, public.svc__queue_depth() AS depth FROM public.svc_queue_seq_seq s`),
    // $1: the oid of the role whose limits apply (NULL: the session's); its oid and name come back.
    capacity: q(
      `SELECT r.id::text AS role_id, pg_get_userbyid(r.id)::text AS role, ${CAPACITY_COLUMNS("r.id")}
     FROM (SELECT coalesce($1, ${SESSION_ROLE_ID}) AS id) r, public.svc__queue_depth_bound b`,
      "oid"
    ),
    // Role $1's requests pending or processing submitted after number $2 (0: all), counted by the inputs
    // they stand for (an embed_many request's texts), with the bytes they store, and the last number given out: one range of svc_queue_owner_active_idx (limits.sql).
    roleUsage: q(
      `SELECT coalesce(sum(q.inputs), 0) AS pending, coalesce(sum(q.stored_bytes), 0) AS bytes, (SELECT s.last_value FROM public.svc_queue_seq_seq s) AS last_seq
     FROM public.svc_queue q WHERE q.owner = $1 AND q.seq > $2 AND q.status IN ('pending', 'processing') AND q.stored_bytes >= 0`,
      "oid",
      "bigint"
    ),
    // svc_queue_limits: the session's role, the exact queue depth and the role's limits.
    sessionLimits: q(`SELECT ${SESSION_ROLE}::text AS role, ${SESSION_ROLE_ID}::text AS role_id, public.svc__queue_depth() AS depth, ${LIMIT_COLUMNS(SESSION_ROLE_ID)}`),
    // $1: the role's oid.
    roleLimitsPut: q(
      `INSERT INTO public.svc_role_limits (role_name, max_pending, max_stored_bytes) VALUES ($1, $2, $3)
     ON CONFLICT (role_name) DO UPDATE SET max_pending = excluded.max_pending, max_stored_bytes = excluded.max_stored_bytes, set_at = now() RETURNING role_name`,
      "oid",
      "bigint",
      "bigint"
    ),
    roleLimitsDelete: q(`DELETE FROM public.svc_role_limits WHERE role_name = $1 RETURNING role_name`, "oid"),
    // One request (owned by the session's role), the workers' wakeup and the capacity figures in one
    // statement: one SPI call per submission. The capacity figures are read in the statement's snapshot,
    // so without the new row; the notification is delivered at commit, and dropped with the row should
    // the capacity check or anything else fail.
    insertJob: q(
      `WITH job AS (
       INSERT INTO public.svc_queue (function_name, parameters, grammar, priority, owner, stored_bytes)
       VALUES ($1, $2, $3, $4, ${SESSION_ROLE_ID}, ${STORED_BYTES("$2")}) RETURNING request_id, owner
     )
     SELECT job.request_id, job.owner::oid::text AS role_id, ${SESSION_ROLE}::text AS role, pg_notify('svc_jobs', $1), ${CAPACITY_COLUMNS("job.owner")}
     FROM job, public.svc__queue_depth_bound b`,
      "text",
      "jsonb",
      "text",
      "integer"
    ),
    // A sync call's requests (svc__sync_submit): one row per element of $2 (parameter objects) for the
    // role of oid $5, waited for under lock $6, submitted with token $7 (its digest kept: svc__sync_state and
    // svc__sync_cancel act on these rows for that token only); a batch when there are several. An
    // embed_many request stands for its texts in the role's quota (inputs), a generate_many request for its prompts. Ids come back with their
    // 1-based position and their inputs.
    insertForWaiter: q(
      `WITH batch AS (SELECT CASE WHEN jsonb_array_length($2) > 1 THEN gen_random_uuid() END AS id)
     INSERT INTO public.svc_queue (function_name, parameters, grammar, priority, batch_id, batch_index, owner, waiter, stored_bytes, sync_token, inputs)
     SELECT $1, t.item, $3, $4, batch.id, t.ord, $5, $6, ${STORED_BYTES("t.item")}, sha256(convert_to($7, 'UTF8')),
       CASE $1 WHEN 'embed_many' THEN jsonb_array_length(t.item->'texts') WHEN 'generate_many' THEN jsonb_array_length(t.item->'prompts') ELSE 1 END
     FROM batch, jsonb_array_elements($2) WITH ORDINALITY AS t(item, ord)
     ORDER BY t.ord
     RETURNING request_id, batch_index, inputs`,
      "text",
      "jsonb",
      "text",
      "integer",
      "oid",
      "integer",
      "text"
    ),
    // One row per element of $2 (a JSON array of parameter objects), all in one new batch; ids come
    // back with their 1-based position so the caller can return them in input order.
    insertBatch: q(
      `WITH batch AS (SELECT gen_random_uuid() AS id)
     INSERT INTO public.svc_queue (function_name, parameters, grammar, priority, batch_id, batch_index, owner, stored_bytes)
     SELECT $1, t.item, $3, $4, batch.id, t.ord, ${SESSION_ROLE_ID}, ${STORED_BYTES("t.item")}
     FROM batch, jsonb_array_elements($2) WITH ORDINALITY AS t(item, ord)
     ORDER BY t.ord
     RETURNING request_id, batch_index`,
      "text",
      "jsonb",
      "text",
      "integer"
    ),
    // The same, the documents $5 stored once (svc_documents) and named by every row (documents_id):
    // svc_rerank_batch_async. The first row counts their bytes.
    insertBatchSharing: q(
      `WITH docs AS (INSERT INTO public.svc_documents (owner, documents) VALUES (${SESSION_ROLE_ID}, $5) RETURNING id, pg_column_size(documents) AS bytes),
          batch AS (SELECT gen_random_uuid() AS id)
     INSERT INTO public.svc_queue (function_name, parameters, grammar, priority, batch_id, batch_index, owner, stored_bytes, documents_id)
     SELECT $1, t.item, $3, $4, batch.id, t.ord, ${SESSION_ROLE_ID}, ${STORED_BYTES("t.item")} + CASE WHEN t.ord = 1 THEN docs.bytes ELSE 0 END, docs.id
     FROM batch, docs, jsonb_array_elements($2) WITH ORDINALITY AS t(item, ord)
     ORDER BY t.ord
     RETURNING request_id, batch_index`,
      "text",
      "jsonb",
      "text",
      "integer",
      "jsonb"
    ),
    notifyWorkers: q(`SELECT pg_notify('svc_jobs', $1)`, "text"),
    // uncommitted: submitted by this very transaction, so no worker can see it before it commits.
    jobStates: q(
      `SELECT request_id, status, result, error, submitted_xact = pg_current_xact_id_if_assigned() AS uncommitted
     FROM public.svc_queue WHERE request_id = ANY ($1)`,
      "uuid[]"
    ),
    sleep: q(`SELECT pg_sleep($1)`, "float8"),
    // svc_generate_stream (stream.ts): a request of the session's role and waiter, with the text its
    // worker last published for the attempt running it.
    streamState: q(
      `SELECT q.status, q.result, q.error, CASE q.status WHEN 'processing' THEN p.partial_result END AS partial
     FROM public.svc_queue q LEFT JOIN public.svc_partial_results p ON p.request_id = q.request_id AND p.attempt = q.attempt
     WHERE q.request_id = $1 AND q.owner = ${SESSION_ROLE_ID}`,
      "uuid"
    ),
    // Whether no session holds request $1's lock exclusively (no worker is running it, or one without
    // the lock): taken shared and given back at once; with the session's lock_timeout, which
    // awaitRequest changes and lockTimeout puts back.
    requestUnheld: q(
      `SELECT CASE WHEN pg_catalog.pg_try_advisory_lock_shared(${REQUEST_KEY}) THEN pg_catalog.pg_advisory_unlock_shared(${REQUEST_KEY}) ELSE false END AS unheld,
            pg_catalog.current_setting('lock_timeout') AS lock_timeout`,
      "uuid"
    ),
    // Waits up to $2 (lock_timeout, set first in the same statement) until the worker holding request
    // $1's lock lets go; given back at once.
    awaitRequest: q(
      `SELECT pg_catalog.set_config('lock_timeout', $2, true), pg_catalog.pg_advisory_lock_shared(${REQUEST_KEY}), pg_catalog.pg_advisory_unlock_shared(${REQUEST_KEY})`,
      "uuid",
      "text"
    ),
    lockTimeout: q(`SELECT pg_catalog.set_config('lock_timeout', $1, true) AS value`, "text"),
    // A sync call's requests that keep its waiter key (svc_queue_waiter_idx): those not finished yet
    // (completing, failing for good and cancelling clear it), with their status alone.
    waiterStates: q(
      `SELECT request_id, status, submitted_xact = pg_current_xact_id_if_assigned() AS uncommitted FROM public.svc_queue WHERE waiter = $1`,
      "integer"
    ),
    // --- the result cache -----------------------------------------------------------------------
    // A hit bumps the entry's frecency; hits and misses are counted (svc_cache_stats).
    // $2: the request's model name; the cache keeps answers under the identity of its file.
    cacheGet: q(`SELECT result FROM public.svc_worker_cache_get($1, public.svc__model_identity($2))`, "text", "text"),
    // The same for many requests ($1 identities, $2 model names), a row per hit with its 1-based position.
    cacheGetMany: q(
      `SELECT t.ord, r.result FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS t(identity, model, ord),
       LATERAL public.svc_worker_cache_get(t.identity, public.svc__model_identity(t.model)) r
     WHERE r.result IS NOT NULL`,
      "text[]",
      "text[]"
    ),
    // --- synchronous calls: an autonomous session back to this database (dblink; sync.ts) ----------
    // What a sync call needs to know of its session, in one statement. dblink_reachable: whether the
    // session's login role (or a role it may SET ROLE to) may execute any of dblink's functions, and so
    // could reach a connection svc left open in this backend (superusers could anyway, and gain nothing).
    syncContext: q(
      `SELECT ${SESSION_ROLE}::text AS owner, ${SESSION_ROLE_ID}::text AS owner_id, pg_backend_pid() AS pid, current_setting('transaction_isolation') AS isolation,
            (SELECT value FROM public.svc_config WHERE name = 'sync_connection') AS target,
            NOT (SELECT rolsuper FROM pg_roles WHERE rolname = session_user) AND EXISTS (
              SELECT FROM pg_depend d
              JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'dblink'
              JOIN pg_proc p ON p.oid = d.objid
              CROSS JOIN LATERAL aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a
              WHERE d.classid = 'pg_proc'::regclass AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
                AND a.privilege_type = 'EXECUTE' AND (a.grantee = 0 OR pg_has_role(session_user, a.grantee, 'MEMBER'))
            ) AS dblink_reachable,
            (SELECT quote_ident(n.nspname) FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'svc') AS schema`
    ),
    // The role the session logs in as must be able to do nothing but what svc grants it.
    syncRole: q(
      `SELECT r.rolcanlogin AND NOT (r.rolsuper OR r.rolcreaterole OR r.rolcreatedb OR r.rolreplication OR r.rolbypassrls)
            AND NOT EXISTS (SELECT FROM pg_auth_members m WHERE m.member = r.oid) AS powerless
     FROM pg_roles r WHERE r.rolname = $1`,
      "name"
    ),
    // Settings only an administrator makes (svc_config; svc_set_sync_connection).
    configPut: q(`INSERT INTO public.svc_config (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value, set_at = now() RETURNING name`, "text", "jsonb"),
    configGet: q(`SELECT value FROM public.svc_config WHERE name = $1`, "text"),
    configDelete: q(`DELETE FROM public.svc_config WHERE name = $1 RETURNING name`, "text"),
    // A fresh token for a one-shot session's application_name, so that no connection of the caller's
    // can carry its connection string as a name (dblink takes a named connection first).
    randomToken: q(`SELECT replace(gen_random_uuid()::text, '-', '') AS token`),
    // The autonomous session through svc's one door to dblink (sql/svc__sync_dblink.sql, autonomous.ts):
    // $1 the action, $2 the administrator's target, $3 a one-shot session's application_name, $4 one of
    // REMOTE's statements, its arguments quoted literals (dblink takes no parameters).
    syncDblink: q(`SELECT r FROM public.svc__sync_dblink($1, $2, $3, $4) AS r`, "text", "jsonb", "text", "text"),
    // In the autonomous session: whether backend $1 holds waiter lock $2 and the lock of token $3, and its login role may act as $4.
    syncWaiterMayActAs: q(`SELECT public.svc__sync_waiter_may_act_as($1, $2, $3, $4) AS ok`, "integer", "integer", "text", "oid"),
    // true when this transaction holds (or now takes) the waiter lock with this key; false when another
    // session holds it.
    waiterLock: q(`SELECT pg_try_advisory_xact_lock(${SYNC_WAITER_LOCK}, $1) AS locked`, "integer"),
    // The same for the lock of a sync call's token $1 (svc__sync_token_key), which proves to
    // svc__sync_submit that the backend named is the one that holds the token.
    tokenLock: q(`SELECT pg_try_advisory_xact_lock(public.svc__sync_token_key($1)) AS locked`, "text"),
    // A sync call's token: 244 random bits (two version-4 UUIDs), known only to the waiting backend's
    // plv8 context (the owner's) and the autonomous session it opens.
    syncToken: q(`SELECT replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '') AS token`),
    // Workers heard from in the last minute, running or starting (loading their models), and those of them
    // serving model $1 (read before every sync call's submission).
    workersSummary: q(
      `SELECT count(*) FILTER (WHERE state IN ('running', 'starting') AND last_heartbeat > clock_timestamp() - interval '1 minute') AS live,
            count(*) FILTER (WHERE state IN ('running', 'starting') AND last_heartbeat > clock_timestamp() - interval '1 minute' AND $1 = ANY (models)) AS serving,
            coalesce(sum(concurrency) FILTER (WHERE state IN ('running', 'starting') AND last_heartbeat > clock_timestamp() - interval '1 minute' AND $1 = ANY (models)), 0) AS slots,
            count(*) AS known
     FROM public.svc_workers`,
      "text"
    ),
    // The requests pending for model $1: only for a timeout's message (it counts them).
    pendingForModel: q(`SELECT count(*) AS pending FROM public.svc_queue WHERE status = 'pending' AND model = $1`, "text"),
    // Only the owner cancels, a pending or a processing request ($2: the statuses, a parameter, not
    // literals, so that the plan (generic, made once) cannot take svc_queue_claim_idx for this lookup by
    // id, see BY_ID_STATUS). A processing one is announced on svc_cancel (CANCEL_CHANNEL in
    // worker/protocol.ts): the worker running it checks (svc_worker_released) and stops at its next token.
    cancel: q(
      `WITH cancelled AS (
       UPDATE public.svc_queue SET status = 'cancelled', cancelled_at = now(), lease_expires_at = NULL
       WHERE request_id = $1 AND status = ANY ($2) AND owner = ${SESSION_ROLE_ID} RETURNING request_id, worker_id
     )
     SELECT request_id, CASE WHEN worker_id IS NOT NULL THEN pg_notify('svc_cancel', request_id::text) END FROM cancelled`,
      "uuid",
      "text[]"
    ),
    // --- vectorizers (vectorizer.ts) --------------------------------------------------------------
    // First in the superuser's functions: svc_owner's tables they touch carry nothing svc did not make ($1: the caller, for the error).
    tablesAsMade: q(`SELECT public.svc__tables_as_made($1)`, "text"),
    sessionRole: q(`SELECT r.rolname AS role, r.oid::text AS oid FROM pg_roles r WHERE r.rolname = ${SESSION_ROLE}`),
    extensionSchema: q(`SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = $1`, "text"),
    // $1: a regclass as plv8 hands it over (its oid, or its name as text).
    relation: q(
      `SELECT c.oid::text AS oid, n.nspname AS schema, c.relname AS name, c.relkind AS kind, c.relrowsecurity AS row_security,
            c.relforcerowsecurity AS force_row_security, pg_has_role(${SESSION_ROLE}, c.relowner, 'USAGE') AS owner_is_role
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = $1::regclass`,
      "text"
    ),
    tableColumns: q(
      `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, t.typcategory AS category
     FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid WHERE a.attrelid = $1::oid AND a.attnum > 0 AND NOT a.attisdropped`,
      "text"
    ),
    // The primary key's columns in order: each one's type, and what the destination stores it as:
    // domains stripped to their base type (with the innermost typmod given), so that no domain check of
    // a role's runs where svc writes; `trusted` is false for a type whose input or comparison could be a
    // role's function (composite, range, an array of a domain or of those).
    primaryKey: q(
      `WITH RECURSIVE keys AS (
       SELECT a.attname AS name, k.ord, a.atttypid AS declared, a.atttypmod AS declared_mod, a.atttypid AS typ, a.atttypmod AS typmod
       FROM pg_index i, unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord), pg_attribute a
       WHERE i.indrelid = $1::oid AND i.indisprimary AND a.attrelid = i.indrelid AND a.attnum = k.attnum
     ), base AS (
       SELECT * FROM keys
       UNION ALL
       SELECT b.name, b.ord, b.declared, b.declared_mod, t.typbasetype, CASE WHEN b.typmod = -1 THEN t.typtypmod ELSE b.typmod END
       FROM base b JOIN pg_type t ON t.oid = b.typ WHERE t.typtype = 'd'
     )
     SELECT b.name, format_type(b.declared, b.declared_mod) AS type, format_type(b.typ, b.typmod) AS storage,
       t.typtype = 'e' OR (t.typtype = 'b' AND (t.typcategory <> 'A' OR e.typtype IN ('b', 'e'))) AS trusted
     FROM base b JOIN pg_type t ON t.oid = b.typ LEFT JOIN pg_type e ON e.oid = t.typelem AND t.typcategory = 'A'
     WHERE t.typtype <> 'd' ORDER BY b.ord`,
      "text"
    ),
    // The first of the columns ($3) that role $1 may not read in table $2 (NULL: it may read them all),
    // whether it may create triggers there, and create tables in schema $4.
    vectorizerPrivileges: q(
      `SELECT (SELECT c FROM unnest($3) AS c WHERE NOT has_column_privilege($1, $2::oid, c, 'SELECT') LIMIT 1) AS select,
            has_table_privilege($1, $2::oid, 'TRIGGER') AS trigger,
            has_schema_privilege($1, $4, 'CREATE') AS create, has_schema_privilege($1, $4, 'USAGE') AS usage`,
      "text",
      "text",
      "text[]",
      "text"
    ),
    parseIdent: q(`SELECT parse_ident($1) AS parts`, "text"),
    schemaExists: q(`SELECT 1 FROM pg_namespace WHERE nspname = $1`, "text"),
    relationByName: q(`SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = $2`, "text", "text"),
    roleExists: q(`SELECT 1 FROM pg_roles WHERE rolname = $1`, "text"),
    roleId: q(`SELECT oid::text AS id FROM pg_roles WHERE rolname = $1`, "text"),
    vectorizerExists: q(`SELECT 1 FROM public.svc_vectorizers WHERE name = $1`, "text"),
    vectorizerInsert: q(
      `INSERT INTO public.svc_vectorizers (name, owner, source, source_column, key_columns, format, chunking, model, destination, embedding_type, batch_size)
     VALUES ($1, $2, $3::oid, $4, $5, $6, $7::jsonb, $8, $9::regclass, $10, $11) RETURNING id`,
      "text",
      "oid",
      "text",
      "text",
      "text[]",
      "text",
      "text",
      "text",
      "text",
      "text",
      "integer"
    ),
    // Whether role $1 (a vectorizer's proxy) may create in schema $2 while role $3 (its declarer) is no superuser.
    mayCreateIn: q(`SELECT has_schema_privilege($1, $2, 'CREATE') AND NOT (SELECT rolsuper FROM pg_roles WHERE rolname = $3) AS may`, "text", "text", "text"),
    // A vectorizer's generated functions (names LIKE $1), members of svc wherever they are, as DDL names them.
    vectorizerFunctions: q(
      `SELECT p.oid::regprocedure::text AS fn FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
     JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'svc' WHERE p.proname LIKE $1`,
      "text"
    ),
    // The session role's vectorizer named $1, its source and destination qualified (NULL once dropped).
    vectorizerOfSession: q(
      `SELECT v.id, v.name, v.owner::oid::text AS owner_id, pg_get_userbyid(v.owner)::text AS owner, v.key_columns, v.model, v.embedding_type,
       ${qualifiedRelation("v.source")} AS source, ${qualifiedRelation("v.destination")} AS destination
     FROM public.svc_vectorizers v WHERE v.name = $1 AND v.owner = ${SESSION_ROLE_ID}`,
      "text"
    ),
    // The same for svc_vectorize_drop: the session role's, or any for an svc_admin member (a dropped role's too).
    vectorizerToDrop: q(
      `SELECT v.id, v.name, v.owner::oid::text AS owner_id, r.rolname::text AS owner, v.key_columns, v.model, v.embedding_type,
       ${qualifiedRelation("v.source")} AS source, ${qualifiedRelation("v.destination")} AS destination,
       (SELECT n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = v.destination) AS destination_schema
     FROM public.svc_vectorizers v LEFT JOIN pg_roles r ON r.oid = v.owner
     WHERE v.name = $1 AND (v.owner = ${SESSION_ROLE_ID} OR pg_has_role(${SESSION_ROLE}, 'svc_admin', 'MEMBER'))`,
      "text"
    ),
    // The same as the caller sees it (svc_search runs as the caller: row-level security shows its own).
    vectorizerForSearch: q(
      `SELECT v.id, v.name, v.key_columns, v.embedding_type, ${qualifiedRelation("v.destination")} AS destination FROM public.svc_vectorizers v WHERE v.name = $1`,
      "text"
    ),
    vectorizerEmbedding: q(`SELECT public.svc_vectorizer_embed($1, $2) AS embedding`, "text", "text"),
    // Whether a vectorizer's destination is in schema $1 (then svc_owner keeps its USAGE there).
    destinationInSchema: q(
      `SELECT 1 FROM public.svc_vectorizers v JOIN pg_class c ON c.oid = v.destination JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 LIMIT 1`,
      "text"
    ),
    vectorizerLock: q(`SELECT 1 FROM public.svc_vectorizers WHERE id = $1 FOR UPDATE`, "integer"),
    // Its pending jobs, but those a claim holds now (they run, and write nothing: the vectorizer is gone).
    vectorizerCancelJobs: q(
      `UPDATE public.svc_queue SET status = 'cancelled', cancelled_at = clock_timestamp(), lease_expires_at = NULL
     WHERE request_id = ANY (ARRAY(
       SELECT l.request_id FROM public.svc_queue l WHERE l.status = 'pending' AND l.function_name = 'vectorize' AND l.parameters->>'vectorizer' = $1::text
       FOR UPDATE SKIP LOCKED))`,
      "integer"
    ),
    vectorizerDelete: q(`DELETE FROM public.svc_vectorizers WHERE id = $1`, "integer"),
    // How many vectorizers role $1 still has here, and whether its proxy ($2) owns or is granted anything in
    // another database (its vectorizers there): the proxy goes with the last of them all.
    vectorizerOwnerLeft: q(
      `SELECT (SELECT count(*) FROM public.svc_vectorizers WHERE owner = $1) AS others,
            EXISTS (SELECT FROM pg_shdepend d JOIN pg_roles r ON r.oid = d.refobjid
                    WHERE r.rolname = $2 AND d.refclassid = 'pg_authid'::regclass
                      AND d.dbid NOT IN (0, (SELECT oid FROM pg_database WHERE datname = current_database()))) AS elsewhere`,
      "oid",
      "text"
    ),
    // --- the prompt registry (prompts.ts): the session role's own prompts only --------------------
    // Version 1 of a new prompt; no row when the role already has one of that name.
    promptInsertFirst: q(
      `INSERT INTO public.svc_prompts (owner, name, version, template, description, variables, metadata)
     VALUES (${SESSION_ROLE_ID}, $1, 1, $2, $3, $4, coalesce($5, '{}'))
     ON CONFLICT ON CONSTRAINT svc_prompts_pkey DO NOTHING RETURNING version`,
      "text",
      "text",
      "text",
      "text[]",
      "jsonb"
    ),
    // Serializes the updates of one prompt on its first version's row, so each reads the latest version
    // after the one before it committed (read committed: the next statement's snapshot is taken after
    // the lock). A row lock, not an advisory one: no other role can take it (FOR UPDATE needs UPDATE on
    // svc_prompts, and row-level security hides the row).
    promptLock: q(`SELECT p.version FROM public.svc_prompts p WHERE p.owner = ${SESSION_ROLE_ID} AND p.name = $1 ORDER BY p.version LIMIT 1 FOR UPDATE`, "text"),
    // The next version, its description and metadata the latest's unless given; no row when there is no such prompt.
    promptInsertNext: q(
      `INSERT INTO public.svc_prompts (owner, name, version, template, description, variables, metadata)
     SELECT p.owner, p.name, p.version + 1, $2, coalesce($3, p.description), $4, coalesce($5, p.metadata) FROM public.svc_prompts p
     WHERE p.owner = ${SESSION_ROLE_ID} AND p.name = $1 ORDER BY p.version DESC LIMIT 1
     RETURNING version`,
      "text",
      "text",
      "text",
      "text[]",
      "jsonb"
    ),
    // Version $2 of the prompt, or its latest when $2 is NULL.
    promptVersion: q(
      `SELECT p.version, p.template FROM public.svc_prompts p WHERE p.owner = ${SESSION_ROLE_ID} AND p.name = $1 AND ($2::integer IS NULL OR p.version = $2)
     ORDER BY p.version DESC LIMIT 1`,
      "text",
      "integer"
    ),
    promptLatestVersion: q(`SELECT max(p.version) AS version FROM public.svc_prompts p WHERE p.owner = ${SESSION_ROLE_ID} AND p.name = $1`, "text")
  };
  var REMOTE = {
    submit: (schema, quotedPayload) => `SELECT pg_catalog.array_to_json(${schema}.svc__sync_submit(${quotedPayload}::pg_catalog.jsonb))::pg_catalog.text`,
    state: (schema, quotedIds2, quotedToken) => `SELECT pg_catalog.row_to_json(s)::pg_catalog.text FROM ${schema}.svc__sync_state(${quotedIds2}::pg_catalog.uuid[], ${quotedToken}::pg_catalog.text) s`,
    cancel: (schema, quotedIds2, quotedToken) => `SELECT ${schema}.svc__sync_cancel(${quotedIds2}::pg_catalog.uuid[], ${quotedToken}::pg_catalog.text)::pg_catalog.text`
  };

  // src/extension/limits.ts
  var LIMITS = {
    maxTokens: { min: 1, max: 32768 },
    priority: { min: -100, max: 100 },
    promptMaxChars: 1e6,
    batchMaxItems: 1e4,
    // A set-based sync call's inputs: a table of 100,000 rows in one statement (the queue holds a window of them at a time).
    syncSetMaxItems: 1e5,
    choicesMaxItems: 1e4,
    rerankMaxDocuments: 1e3,
    // svc_rerank_batch_async: one request per query, over documents stored once (svc_documents).
    rerankBatchMaxQueries: 1e3,
    // Arrays and objects in a JSON Schema, counted from the schema itself (a const or enum value too).
    schemaMaxNesting: 512,
    // The prompt registry: a template and its description as stored; a render's variables nest no deeper
    // than a schema may (the rendered text is bounded by promptMaxChars).
    promptTemplateMaxChars: 1e5,
    promptDescriptionMaxChars: 1e4,
    // Limits across roles (quotas.ts), until an svc_admin member sets others (svc_set_queue_limits,
    // svc_set_role_limits): requests pending or processing over all roles, and each role's quotas of
    // them and of the bytes they store (parameters and grammar). A role's default is half the queue, so
    // that one role alone cannot fill it.
    queueDefaults: { maxQueueSize: 1e4, maxPending: 5e3, maxStoredBytes: 256 * 1024 * 1024 },
    // plv8 stops any call after plv8.execution_timeout (300 s by default); waits stay inside it.
    timeoutSecondsMax: 300
  };

  // src/queue/sqlstate.ts
  var SQLSTATE = {
    invalid_parameter_value: "22023",
    invalid_text_representation: "22P02",
    null_value_not_allowed: "22004",
    program_limit_exceeded: "54000",
    /** The queue, or a role's share of it, is full. */
    configuration_limit_exceeded: "53400",
    insufficient_privilege: "42501",
    undefined_table: "42P01",
    undefined_column: "42703",
    undefined_object: "42704",
    undefined_function: "42883",
    duplicate_object: "42710",
    duplicate_table: "42P07",
    wrong_object_type: "42809",
    datatype_mismatch: "42804",
    invalid_name: "42602",
    invalid_schema_name: "3F000",
    invalid_catalog_name: "3D000",
    invalid_authorization_specification: "28000",
    invalid_password: "28P01",
    object_not_in_prerequisite_state: "55000",
    lock_not_available: "55P03",
    query_canceled: "57014",
    feature_not_supported: "0A000",
    /** The synchronous functions' autonomous session cannot connect. */
    sqlclient_unable_to_establish_sqlconnection: "08001",
    svc_request_failed: "SV001",
    svc_request_cancelled: "SV002",
    svc_timed_out: "SV003",
    svc_unknown_request: "SV004",
    svc_not_committed: "SV005",
    svc_no_worker_for_model: "SV006"
  };

  // src/extension/errors.ts
  function packSqlState(sqlstate) {
    let packed = 0;
    for (let i = 0; i < 5; i++) packed += (sqlstate.charCodeAt(i) - 48 & 63) << 6 * i;
    return packed;
  }
  var SvcError = class extends Error {
    constructor(sqlerrcode, message, extra = {}) {
      super(message);
      /** The SQLSTATE, e.g. '22023'. */
      __publicField(this, "sqlerrcode");
      /** The same SQLSTATE packed (what the genuine plv8 reads). */
      __publicField(this, "code");
      __publicField(this, "detail");
      __publicField(this, "hint");
      this.sqlerrcode = sqlerrcode;
      this.code = packSqlState(sqlerrcode);
      this.detail = extra.detail;
      this.hint = extra.hint;
    }
  };
  function parameterError(fn, parameter, rule, extra = {}, code = SQLSTATE.invalid_parameter_value) {
    return new SvcError(code, `${fn}: ${parameter} ${rule}`, extra);
  }
  var sqlState = (error) => String(error.sqlerrcode ?? "");
  var isDataException = (error) => sqlState(error).startsWith("22");

  // src/decode/sampling.ts
  var SAMPLING_DEFAULTS = { temperature: 0, topK: 40, topP: 0.95, minP: 0.05 };
  var SAMPLING_LIMITS = { temperatureMax: 2, topKMax: 2147483647 };
  var SQL_NAMES = { temperature: "temperature", topK: "top_k", topP: "top_p", minP: "min_p" };
  function samplingProblem(option, value) {
    const got = ` (got ${typeof value === "number" ? String(value) : JSON.stringify(value) ?? String(value)})`;
    switch (option) {
      case "temperature":
        return typeof value === "number" && value >= 0 && value <= SAMPLING_LIMITS.temperatureMax ? void 0 : `must be a number from 0 to ${SAMPLING_LIMITS.temperatureMax}${got}`;
      case "topK":
        return Number.isInteger(value) && value >= 0 && value <= SAMPLING_LIMITS.topKMax ? void 0 : `must be an integer from 0 (every token) to ${SAMPLING_LIMITS.topKMax}${got}`;
      case "topP":
        return typeof value === "number" && value > 0 && value <= 1 ? void 0 : `must be a number above 0 and at most 1${got}`;
      case "minP":
        return typeof value === "number" && value >= 0 && value < 1 ? void 0 : `must be a number from 0 to below 1${got}`;
    }
  }
  var isGreedy = (sampling2) => sampling2 === void 0 || sampling2.temperature === 0;
  function recordedSampling(sampling2) {
    if (sampling2 === void 0 || isGreedy(sampling2)) return {};
    return { temperature: sampling2.temperature, top_k: sampling2.topK, top_p: sampling2.topP, min_p: sampling2.minP };
  }

  // src/grammar/errors.ts
  var ConstraintError = class extends Error {
    constructor(code, message, context = {}) {
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 0;
      super(describe(message, context));
      __publicField(this, "code");
      __publicField(this, "pointer");
      __publicField(this, "position");
      __publicField(this, "keyword");
      __publicField(this, "details");
      Error.stackTraceLimit = limit;
      this.name = "ConstraintError";
      this.code = code;
      this.pointer = context.pointer;
      this.position = context.position;
      this.keyword = context.keyword;
      this.details = context.details;
    }
  };
  function describe(message, context) {
    const where = [];
    if (context.pointer !== void 0) where.push(`at ${context.pointer === "" ? "#" : "#" + context.pointer}`);
    if (context.position !== void 0) where.push(`at position ${context.position}`);
    return where.length ? `${message} (${where.join(", ")})` : message;
  }
  function pointerChild(pointer, token) {
    return `${pointer}/${String(token).replace(/~/g, "~0").replace(/\//g, "~1")}`;
  }

  // src/automaton/expr.ts
  var MAX_CODE_POINT = 1114111;
  var GENERATABLE = [
    [1, 55295],
    [57344, MAX_CODE_POINT]
  ];
  var EMPTY = { kind: "literal", text: "" };
  var literal = (text3) => ({ kind: "literal", text: text3 });
  var ref = (name) => ({ kind: "ref", name });
  var charClass = (ranges, negated = false) => ({ kind: "class", ranges, negated });
  var repeat = (body, min, max) => min === 1 && max === 1 ? body : max === 0 ? EMPTY : { kind: "repeat", body, min, max };
  var optional = (body) => repeat(body, 0, 1);
  function seq(...items) {
    return seqOf(items);
  }
  function seqOf(items) {
    const flat = [];
    const push = (item) => {
      const last = flat[flat.length - 1];
      if (item.kind === "literal" && item.text === "") return;
      if (item.kind === "literal" && last?.kind === "literal") flat[flat.length - 1] = literal(last.text + item.text);
      else flat.push(item);
    };
    for (const item of items) {
      if (item.kind === "seq") for (const inner of item.items) push(inner);
      else push(item);
    }
    if (flat.length === 0) return EMPTY;
    if (flat.length === 1) return flat[0];
    return { kind: "seq", items: flat };
  }
  function alt(...options) {
    return altOf(options);
  }
  function altOf(options) {
    const flat = [];
    for (const option of options) {
      if (option.kind === "alt") for (const inner of option.options) flat.push(inner);
      else flat.push(option);
    }
    if (flat.length === 1) return flat[0];
    return { kind: "alt", options: flat };
  }
  function normalizeRanges(input) {
    const sorted = [...input].filter(([lo, hi]) => lo <= hi).sort((a, b) => a[0] - b[0]);
    const out = [];
    for (const [lo, hi] of sorted) {
      const last = out[out.length - 1];
      if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
      else out.push([lo, hi]);
    }
    return out;
  }
  function complementRanges(ranges, universe = [[0, MAX_CODE_POINT]]) {
    const out = [];
    for (const [ulo, uhi] of universe) {
      let next = ulo;
      for (const [lo, hi] of ranges) {
        if (hi < next || lo > uhi) continue;
        if (lo > next) out.push([next, Math.min(lo - 1, uhi)]);
        next = Math.max(next, hi + 1);
      }
      if (next <= uhi) out.push([next, uhi]);
    }
    return normalizeRanges(out);
  }
  function intersectRanges(a, b) {
    const out = [];
    for (const [alo, ahi] of a) {
      for (const [blo, bhi] of b) {
        const lo = Math.max(alo, blo);
        const hi = Math.min(ahi, bhi);
        if (lo <= hi) out.push([lo, hi]);
      }
    }
    return normalizeRanges(out);
  }
  function rangesContain(ranges, codePoint) {
    let lo = 0;
    let hi = ranges.length - 1;
    while (lo <= hi) {
      const mid = lo + hi >> 1;
      const [rlo, rhi] = ranges[mid];
      if (codePoint < rlo) hi = mid - 1;
      else if (codePoint > rhi) lo = mid + 1;
      else return true;
    }
    return false;
  }
  function codePointsOf(text3) {
    const out = [];
    for (const ch of text3) out.push(ch.codePointAt(0));
    return out;
  }
  function isNullable(expr, nullableRules2 = /* @__PURE__ */ new Set()) {
    switch (expr.kind) {
      case "literal":
        return expr.text === "";
      case "class":
        return false;
      case "ref":
        return nullableRules2.has(expr.name);
      case "seq":
        return expr.items.every((item) => isNullable(item, nullableRules2));
      case "alt":
        return expr.options.some((option) => isNullable(option, nullableRules2));
      case "repeat":
        return expr.min === 0 || isNullable(expr.body, nullableRules2);
    }
  }
  function nullableRules(grammar) {
    const nullable = /* @__PURE__ */ new Set();
    let changed = true;
    while (changed) {
      changed = false;
      for (const [name, body] of grammar.rules) {
        if (!nullable.has(name) && isNullable(body, nullable)) {
          nullable.add(name);
          changed = true;
        }
      }
    }
    return nullable;
  }
  var MAX_EXPR_DEPTH = 1e3;
  var depths = /* @__PURE__ */ new WeakMap();
  function children(expr) {
    switch (expr.kind) {
      case "seq":
        return expr.items;
      case "alt":
        return expr.options;
      case "repeat":
        return [expr.body];
      default:
        return [];
    }
  }
  var isLeaf = (expr) => expr.kind !== "seq" && expr.kind !== "alt" && expr.kind !== "repeat";
  function exprDepth(root) {
    if (isLeaf(root)) return 1;
    const stack = [root];
    while (stack.length) {
      const expr = stack[stack.length - 1];
      if (depths.has(expr)) {
        stack.pop();
        continue;
      }
      let deepest = 0;
      let pending = false;
      for (const child2 of children(expr)) {
        if (isLeaf(child2)) {
          deepest = Math.max(deepest, 1);
          continue;
        }
        const depth = depths.get(child2);
        if (depth === void 0) {
          stack.push(child2);
          pending = true;
        } else if (depth > deepest) deepest = depth;
      }
      if (pending) continue;
      stack.pop();
      depths.set(expr, 1 + deepest);
    }
    return depths.get(root);
  }
  function lengthBounds(expr) {
    switch (expr.kind) {
      case "literal":
        return [codePointsOf(expr.text).length, codePointsOf(expr.text).length];
      case "class":
        return [1, 1];
      case "ref":
        return [0, null];
      case "seq": {
        let min = 0;
        let max = 0;
        for (const item of expr.items) {
          const [a, b] = lengthBounds(item);
          min += a;
          max = max === null || b === null ? null : max + b;
        }
        return [min, max];
      }
      case "alt": {
        let min = Infinity;
        let max = 0;
        for (const option of expr.options) {
          const [a, b] = lengthBounds(option);
          min = Math.min(min, a);
          max = max === null || b === null ? null : Math.max(max, b);
        }
        return [min === Infinity ? 0 : min, max];
      }
      case "repeat": {
        const [a, b] = lengthBounds(expr.body);
        return [a * expr.min, expr.max === null ? b === 0 ? 0 : null : b === null ? null : b * expr.max];
      }
    }
  }

  // src/grammar/gbnf-run.ts
  function recognizeWithin(grammar, text3, budget) {
    try {
      return recognize(grammar, text3, budget);
    } catch (error) {
      if (error === OUT_OF_STEPS) return null;
      throw error;
    }
  }
  var OUT_OF_STEPS = new Error("out of steps");
  function recognize(grammar, text3, budget) {
    const input = codePointsOf(text3);
    const memo = /* @__PURE__ */ new Map();
    for (const name of grammar.rules.keys()) memo.set(name, /* @__PURE__ */ new Map());
    const matchRule = (name, pos) => {
      const table = memo.get(name);
      const body = grammar.rules.get(name);
      if (!table || !body) throw new ConstraintError("invalid-gbnf", `undefined rule '${name}'`);
      const cached = table.get(pos);
      if (cached === "pending") throw new ConstraintError("invalid-gbnf", `rule '${name}' is left-recursive`);
      if (cached) return cached;
      table.set(pos, "pending");
      const result = match(body, pos);
      table.set(pos, result);
      return result;
    };
    const match = (expr, pos) => {
      if (--budget.steps < 0) throw OUT_OF_STEPS;
      switch (expr.kind) {
        case "literal": {
          let p = pos;
          for (const ch of expr.text) {
            if (input[p] !== ch.codePointAt(0)) return [];
            p++;
          }
          return [p];
        }
        case "class": {
          if (pos >= input.length) return [];
          const inRanges = rangesContain(expr.ranges, input[pos]);
          return inRanges !== expr.negated ? [pos + 1] : [];
        }
        case "ref":
          return matchRule(expr.name, pos);
        case "seq": {
          let frontier = [pos];
          for (const item of expr.items) {
            const next = /* @__PURE__ */ new Set();
            for (const p of frontier) for (const q2 of match(item, p)) next.add(q2);
            if (next.size === 0) return [];
            frontier = [...next];
          }
          return frontier;
        }
        case "alt": {
          const out = /* @__PURE__ */ new Set();
          for (const option of expr.options) for (const q2 of match(option, pos)) out.add(q2);
          return [...out];
        }
        case "repeat": {
          const results = /* @__PURE__ */ new Set();
          if (expr.min === 0) results.add(pos);
          let frontier = [pos];
          for (let count = 1; frontier.length > 0 && (expr.max === null || count <= expr.max); count++) {
            const next = /* @__PURE__ */ new Set();
            for (const p of frontier) for (const q2 of match(expr.body, p)) next.add(q2);
            if (count < expr.min) {
              frontier = [...next];
              continue;
            }
            frontier = [];
            for (const q2 of next) {
              if (!results.has(q2)) {
                results.add(q2);
                frontier.push(q2);
              }
            }
          }
          return [...results];
        }
      }
    };
    return matchRule(grammar.root, 0).includes(input.length);
  }
  var INTERESTING = [
    ...Array.from({ length: 95 }, (_, i) => 32 + i),
    9,
    10,
    13,
    1,
    31,
    127,
    160,
    233,
    241,
    223,
    969,
    8232,
    26085,
    128512,
    383,
    8490
  ];
  function derivationHeights(grammar) {
    const heights = /* @__PURE__ */ new Map();
    for (const name of grammar.rules.keys()) heights.set(name, Infinity);
    let changed = true;
    while (changed) {
      changed = false;
      for (const [name, body] of grammar.rules) {
        const h = 1 + exprHeight(body, heights);
        if (h < heights.get(name)) {
          heights.set(name, h);
          changed = true;
        }
      }
    }
    return heights;
  }
  function exprHeight(expr, heights) {
    switch (expr.kind) {
      case "literal":
      case "class":
        return 0;
      case "ref":
        return heights.get(expr.name) ?? Infinity;
      case "seq":
        return expr.items.reduce((h, item) => Math.max(h, exprHeight(item, heights)), 0);
      case "alt":
        return expr.options.reduce((h, option) => Math.min(h, exprHeight(option, heights)), Infinity);
      case "repeat":
        return expr.min === 0 ? 0 : exprHeight(expr.body, heights);
    }
  }

  // src/grammar/gbnf-parse.ts
  var isWordChar = (ch) => /[a-zA-Z0-9-]/.test(ch);
  var GbnfParser = class {
    constructor(src) {
      __publicField(this, "src", src);
      __publicField(this, "pos", 0);
      __publicField(this, "depth", 0);
      __publicField(this, "rules", /* @__PURE__ */ new Map());
      __publicField(this, "references", /* @__PURE__ */ new Map());
    }
    parse() {
      this.skipSpace(true);
      while (this.pos < this.src.length) {
        this.parseRule();
        this.skipSpace(true);
      }
      for (const [name, position] of this.references) {
        if (!this.rules.has(name)) this.fail(`undefined rule '${name}'`, position);
      }
      if (!this.rules.has("root")) this.fail("grammar has no 'root' rule", 0);
      return { rules: this.rules, root: "root" };
    }
    fail(message, position = this.pos) {
      throw new ConstraintError("invalid-gbnf", `GBNF: ${message}`, { position });
    }
    skipSpace(newlineOk) {
      while (this.pos < this.src.length) {
        const ch = this.src[this.pos];
        if (ch === " " || ch === "	" || newlineOk && (ch === "\n" || ch === "\r")) this.pos++;
        else if (ch === "#") {
          while (this.pos < this.src.length && this.src[this.pos] !== "\n" && this.src[this.pos] !== "\r") this.pos++;
        } else break;
      }
    }
    parseName() {
      const start2 = this.pos;
      while (this.pos < this.src.length && isWordChar(this.src[this.pos])) this.pos++;
      if (start2 === this.pos) this.fail("expecting a rule name");
      return this.src.slice(start2, this.pos);
    }
    parseRule() {
      const namePos = this.pos;
      const name = this.parseName();
      this.skipSpace(false);
      if (!this.src.startsWith("::=", this.pos)) this.fail("expecting '::='");
      this.pos += 3;
      this.skipSpace(true);
      const body = this.parseAlternates(false);
      if (this.rules.has(name)) this.fail(`rule '${name}' defined twice`, namePos);
      this.rules.set(name, body);
      const ch = this.src[this.pos];
      if (ch === "\r") this.pos += this.src[this.pos + 1] === "\n" ? 2 : 1;
      else if (ch === "\n") this.pos++;
      else if (this.pos < this.src.length) this.fail("expecting a newline or the end");
    }
    parseAlternates(nested) {
      const options = [this.parseSequence(nested)];
      while (this.src[this.pos] === "|") {
        this.pos++;
        this.skipSpace(true);
        options.push(this.parseSequence(nested));
      }
      return altOf(options);
    }
    parseSequence(nested) {
      const items = [];
      for (; ; ) {
        const ch = this.src[this.pos];
        if (ch === void 0) break;
        if (ch === '"') {
          this.pos++;
          let text3 = "";
          while (this.src[this.pos] !== '"') {
            if (this.pos >= this.src.length) this.fail("unterminated literal");
            text3 += String.fromCodePoint(this.parseChar());
          }
          this.pos++;
          items.push(literal(text3));
        } else if (ch === "[") {
          this.pos++;
          let negated = false;
          if (this.src[this.pos] === "^") {
            negated = true;
            this.pos++;
          }
          const ranges = [];
          while (this.src[this.pos] !== "]") {
            if (this.pos >= this.src.length) this.fail("unterminated character class");
            const lo = this.parseChar();
            if (this.src[this.pos] === "-" && this.src[this.pos + 1] !== "]") {
              this.pos++;
              if (this.pos >= this.src.length) this.fail("unterminated character class");
              const hi = this.parseChar();
              if (hi < lo) this.fail("character range out of order");
              ranges.push([lo, hi]);
            } else ranges.push([lo, lo]);
          }
          this.pos++;
          items.push(charClass(normalizeRanges(ranges), negated));
        } else if (isWordChar(ch)) {
          const position = this.pos;
          const name = this.parseName();
          if (!this.references.has(name)) this.references.set(name, position);
          items.push(ref(name));
        } else if (ch === "(") {
          if (++this.depth > MAX_EXPR_DEPTH) this.fail(`groups nest deeper than ${MAX_EXPR_DEPTH}`);
          this.pos++;
          this.skipSpace(true);
          const inner = this.parseAlternates(true);
          this.depth--;
          if (this.src[this.pos] !== ")") this.fail("expecting ')'");
          this.pos++;
          items.push(inner);
        } else if (ch === ".") {
          this.pos++;
          items.push(charClass([], true));
        } else if (ch === "*" || ch === "+" || ch === "?" || ch === "{") {
          const last = items.pop();
          if (!last) this.fail(`expecting an item before '${ch}'`);
          items.push(this.parseRepetition(last));
        } else break;
        this.skipSpace(nested);
      }
      return items.length === 1 ? items[0] : seqOf(items);
    }
    parseRepetition(body) {
      const ch = this.src[this.pos++];
      if (ch === "*") return repeat(body, 0, null);
      if (ch === "+") return repeat(body, 1, null);
      if (ch === "?") return repeat(body, 0, 1);
      this.skipSpace(false);
      const min = this.parseInt();
      let max = min;
      this.skipSpace(false);
      if (this.src[this.pos] === ",") {
        this.pos++;
        this.skipSpace(false);
        max = /[0-9]/.test(this.src[this.pos] ?? "") ? this.parseInt() : null;
        this.skipSpace(false);
      }
      if (this.src[this.pos] !== "}") this.fail("expecting '}'");
      this.pos++;
      if (max !== null && max < min) this.fail(`repetition {${min},${max}} has max below min`);
      return repeat(body, min, max);
    }
    parseInt() {
      const start2 = this.pos;
      while (/[0-9]/.test(this.src[this.pos] ?? "")) this.pos++;
      if (start2 === this.pos) this.fail("expecting a number");
      return Number(this.src.slice(start2, this.pos));
    }
    parseChar() {
      const ch = this.src[this.pos];
      if (ch === "\\") {
        const esc = this.src[this.pos + 1];
        const hexLength = esc === "x" ? 2 : esc === "u" ? 4 : esc === "U" ? 8 : 0;
        if (hexLength) {
          const digits = this.src.slice(this.pos + 2, this.pos + 2 + hexLength);
          if (!new RegExp(`^[0-9a-fA-F]{${hexLength}}$`).test(digits)) this.fail("bad hex escape");
          this.pos += 2 + hexLength;
          const value = parseInt(digits, 16);
          if (value > 1114111) this.fail("code point out of range");
          return value;
        }
        const simple = { t: 9, r: 13, n: 10, "\\": 92, '"': 34, "[": 91, "]": 93 };
        if (esc !== void 0 && esc in simple) {
          this.pos += 2;
          return simple[esc];
        }
        this.fail(`unknown escape '\\${esc ?? ""}'`);
      }
      const codePoint = this.src.codePointAt(this.pos);
      this.pos += codePoint > 65535 ? 2 : 1;
      return codePoint;
    }
  };
  function parseGbnf(text3) {
    return new GbnfParser(text3).parse();
  }

  // src/decode/stop.ts
  var STOP_LIMITS = { maxStrings: 16, maxChars: 1e3 };
  function stopProblem(stops, name, base) {
    if (stops.length > STOP_LIMITS.maxStrings)
      return {
        subject: name,
        rule: `must have at most ${STOP_LIMITS.maxStrings} strings (got ${stops.length})`,
        overLimit: true
      };
    for (const [i, stop] of stops.entries()) {
      const subject = `${name}[${i + base}]`;
      if (typeof stop !== "string") return { subject, rule: "must be a string", overLimit: false };
      if (stop === "") return { subject, rule: "must not be empty", overLimit: false };
      if (stop.length > STOP_LIMITS.maxChars)
        return {
          subject,
          rule: `must be at most ${STOP_LIMITS.maxChars} characters (got ${stop.length})`,
          overLimit: true
        };
    }
    return void 0;
  }

  // src/extension/validate.ts
  var isNull = (v) => v === null || v === void 0;
  function notNull(fn, name, value) {
    if (isNull(value)) throw parameterError(fn, name, "must not be NULL", {}, SQLSTATE.null_value_not_allowed);
    return value;
  }
  function text(fn, name, value, { allowEmpty = false, maxChars = LIMITS.promptMaxChars } = {}) {
    const v = notNull(fn, name, value);
    if (typeof v !== "string") throw parameterError(fn, name, "must be text");
    if (!allowEmpty && v.trim() === "") throw parameterError(fn, name, "must not be empty");
    if (v.length > maxChars) throw parameterError(fn, name, `must be at most ${maxChars} characters (got ${v.length})`, {}, SQLSTATE.program_limit_exceeded);
    return v;
  }
  function integerInRange(fn, name, value, min, max) {
    const v = notNull(fn, name, value);
    if (typeof v !== "number" || !Number.isInteger(v)) throw parameterError(fn, name, "must be an integer");
    if (v < min || v > max) throw parameterError(fn, name, `must be between ${min} and ${max} (got ${v})`);
    return v;
  }
  var maxTokens = (fn, value) => integerInRange(fn, "max_tokens", value, LIMITS.maxTokens.min, LIMITS.maxTokens.max);
  var priority = (fn, value) => integerInRange(fn, "priority", value, LIMITS.priority.min, LIMITS.priority.max);
  var seed = (fn, value) => integerInRange(fn, "seed", value, -2147483648, 2147483647);
  function boolean(fn, name, value) {
    const v = notNull(fn, name, value);
    if (typeof v !== "boolean") throw parameterError(fn, name, "must be a boolean");
    return v;
  }
  function uuid(fn, name, value) {
    const v = notNull(fn, name, value);
    if (typeof v !== "string" || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v)) {
      throw parameterError(fn, name, "must be a UUID");
    }
    return v.toLowerCase();
  }
  function array(fn, name, value, { maxItems, allowEmpty = false }) {
    const v = notNull(fn, name, value);
    if (!Array.isArray(v)) throw parameterError(fn, name, "must be an array");
    if (v.length === 0 && !allowEmpty) throw parameterError(fn, name, "must not be empty");
    if (v.length > maxItems) throw parameterError(fn, name, `must have at most ${maxItems} items (got ${v.length})`, {}, SQLSTATE.program_limit_exceeded);
    return v;
  }
  var itemName = (name, index) => `${name}[${index + 1}]`;
  function textArray(fn, name, value, { maxItems }) {
    const v = notNull(fn, name, value);
    if (!Array.isArray(v)) throw parameterError(fn, name, "must be a text array");
    return array(fn, name, v, { maxItems }).map((item, i) => textItem(fn, itemName(name, i), item));
  }
  function textItem(fn, label, item) {
    if (isNull(item)) throw parameterError(fn, label, "must not be NULL", {}, SQLSTATE.null_value_not_allowed);
    return text(fn, label, item);
  }
  function jsonNesting(fn, name, value, maxDepth) {
    const stack = [[value, 1]];
    while (stack.length > 0) {
      const [item, depth] = stack.pop();
      if (item === null || typeof item !== "object") continue;
      if (depth > maxDepth) throw parameterError(fn, name, `must nest at most ${maxDepth} arrays and objects deep`, {}, SQLSTATE.program_limit_exceeded);
      for (const child2 of Object.values(item)) if (child2 !== null && typeof child2 === "object") stack.push([child2, depth + 1]);
    }
  }
  function sampling(fn, given2) {
    const out = { ...SAMPLING_DEFAULTS };
    for (const key of Object.keys(SQL_NAMES)) {
      const value = given2[key];
      if (value === void 0) continue;
      const name = SQL_NAMES[key];
      notNull(fn, name, value);
      const problem = samplingProblem(key, value);
      if (problem) throw parameterError(fn, name, problem);
      out[key] = value;
    }
    return out;
  }
  function stopStrings(fn, name, value) {
    if (isNull(value)) return [];
    if (!Array.isArray(value)) throw parameterError(fn, name, "must be a text array");
    const nullAt = value.findIndex(isNull);
    if (nullAt >= 0) throw parameterError(fn, itemName(name, nullAt), "must not be NULL", {}, SQLSTATE.null_value_not_allowed);
    const problem = stopProblem(value, name, 1);
    if (problem) throw parameterError(fn, problem.subject, problem.rule, {}, problem.overLimit ? SQLSTATE.program_limit_exceeded : SQLSTATE.invalid_parameter_value);
    return value;
  }

  // src/extension/settings-catalog.ts
  var SETTINGS = {
    "svc.max_queue_size": { default: "10000", meaning: "lowers this session's bound of requests pending or processing over all roles, never above the queue's (svc_set_queue_limits, 10000 by default); beyond it submission fails (53400)" },
    "svc.worker_concurrency": { default: "4", meaning: "jobs a worker runs at once when SVC_WORKER_CONCURRENCY is unset" },
    "svc.worker_poll_interval": { default: "1s", meaning: "a worker's polling fallback when SVC_WORKER_POLL_INTERVAL is unset" },
    "svc.sync_timeout": { default: "60s", meaning: "how long the synchronous functions wait for a worker" },
    "svc.cache_size": { default: "10000", meaning: "result cache entries kept (least used evicted first)" },
    "svc.retention": { default: "1 day", meaning: "how long finished (completed, failed, cancelled) requests are kept; the workers delete older ones in small batches. Read in the workers' sessions: set it per database (ALTER DATABASE) or for their role" },
    "svc.retry_backoff": { default: "1s", meaning: "base of the retry backoff: retry n waits svc.retry_backoff * 2^n, at most 5 minutes" },
    "svc.prompt_format": { default: "chat", meaning: "how generation prompts reach the model: 'chat' sends the prompt as the user turn of the model's chat template (raw on a model without one), 'raw' sends it as is; recorded in the request's parameters and part of its cache key" },
    "svc.strict_schema": { default: "off", meaning: "'on' refuses JSON Schema keywords of no standard vocabulary (x-*, readonly, id after draft-04) and unknown formats; 'off' takes them as annotations, as the JSON Schema specification says; recorded in the request's parameters (strict_schema) and part of its cache key" },
    "svc.open_objects": { default: "off", meaning: "'on' compiles JSON Schema objects without additionalProperties as open (any further members, as the JSON Schema specification reads them); 'off' closes them (only the declared properties, what a model should write); recorded in the request's parameters (open_objects) and part of its cache key" },
    "svc.model": { default: null, meaning: "the model (svc_models) of this session's requests, for every function (unset: svc.generate_model, svc.embed_model, svc.rerank_model); recorded in the request's parameters unless 'default', and part of its cache key" },
    "svc.generate_model": { default: null, meaning: "the model of generation requests (svc_generate*, svc_generate_json/_regex/_choice*) when svc.model is unset (unset: 'default')" },
    "svc.embed_model": { default: null, meaning: "the model of embedding requests (svc_embed*, vectorizers declared without model) and, unless svc.rerank_model is set, of rerank requests, when svc.model is unset (unset: the model named 'embed' where one serves embed, else 'default')" },
    "svc.rerank_model": { default: null, meaning: "the model of rerank requests (svc_rerank*) when svc.model is unset (unset: svc.embed_model's, else the model named 'embed' where one serves rerank, else 'default')" },
    "svc.summarize_chunk_size": { default: null, meaning: "characters of text per model call of svc_summarize (at least 100): a chunk of rows' text is summarized at a time, and partial summaries are combined when together they pass it; unset, chunks are cut to fit the serving model's context (in UTF-8 bytes, at most one token each)" },
    "svc.system_prompt": { default: null, meaning: "system turn of the chat template for generation requests in the 'chat' format (unset or empty: none); recorded in the request's parameters and part of its cache key" }
  };

  // src/extension/sql-text.ts
  function checkNoNul(what, text3) {
    if (text3.includes("\0")) throw new RangeError(`${what} must not contain a NUL character`);
  }
  function quoteIdent(name) {
    checkNoNul("an SQL identifier", name);
    return `"${name.replace(/"/g, '""')}"`;
  }
  function quoteLiteral(text3) {
    checkNoNul("an SQL literal", text3);
    const quoted = text3.replace(/'/g, "''");
    return text3.includes("\\") ? `E'${quoted.replace(/\\/g, "\\\\")}'` : `'${quoted}'`;
  }
  var qualified = (schema, name) => `${quoteIdent(schema)}.${quoteIdent(name)}`;
  function dollarQuote(body, tag) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(tag)) throw new RangeError(`a dollar-quote tag must be a plain name (got ${JSON.stringify(tag)})`);
    let t = tag;
    for (let i = 0; body.includes(`$${t}`); i++) t = `${tag}${i}`;
    return `$${t}$${body}$${t}$`;
  }

  // src/extension/settings.ts
  var normalized = (value) => value === null || value.trim() === "" ? null : value.trim();
  function raw(name) {
    return normalized(one(QUERIES.setting, name)?.value ?? null);
  }
  var settingValue = (name) => raw(name);
  function integerSetting(name, min, current) {
    const value = current === void 0 ? raw(name) : normalized(current);
    if (value === null) return Number(SETTINGS[name].default);
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) {
      throw new SvcError(SQLSTATE.invalid_parameter_value, `setting ${name} must be an integer of at least ${min} (is "${value}")`);
    }
    return n;
  }
  function intervalSetting(name) {
    const value = raw(name) ?? SETTINGS[name].default;
    let seconds;
    try {
      seconds = Number(one(QUERIES.intervalSeconds, value)?.seconds);
    } catch (error) {
      if (!isDataException(error)) throw error;
      seconds = void 0;
    }
    if (seconds === void 0 || !Number.isFinite(seconds) || seconds <= 0) {
      throw new SvcError(SQLSTATE.invalid_parameter_value, `setting ${name} must be a positive interval such as '60s' (is "${value}")`);
    }
    return seconds;
  }
  function onOffSetting(name) {
    const lower = (raw(name) ?? SETTINGS[name].default).toLowerCase();
    if (lower === "on" || lower === "true") return true;
    if (lower === "off" || lower === "false") return false;
    throw new SvcError(SQLSTATE.invalid_parameter_value, `setting ${name} must be 'on' or 'off' (is "${raw(name)}")`);
  }
  function schemaSettings() {
    return { strict: onOffSetting("svc.strict_schema"), openObjects: onOffSetting("svc.open_objects") };
  }
  function promptSettings() {
    const row = one(QUERIES.promptSettings);
    const format = normalized(row.prompt_format)?.toLowerCase() ?? SETTINGS["svc.prompt_format"].default;
    if (format !== "chat" && format !== "raw") {
      throw new SvcError(SQLSTATE.invalid_parameter_value, `setting svc.prompt_format must be 'chat' or 'raw' (is "${row.prompt_format}")`);
    }
    const system = row.system_prompt;
    if (format === "raw" || system === null || system.trim() === "") return { prompt_format: format };
    if (system.length > LIMITS.promptMaxChars) {
      throw new SvcError(SQLSTATE.program_limit_exceeded, `setting svc.system_prompt must be at most ${LIMITS.promptMaxChars} characters (is ${system.length})`);
    }
    return { prompt_format: format, system_prompt: system };
  }
  function servingContext(family) {
    const size = chosenModel(family, void 0).context_size;
    return size === null || size === void 0 ? null : Number(size);
  }
  function chosenModel(family, recorded) {
    if (recorded === void 0) return one(QUERIES.requestModel, family);
    const name = recorded ?? "default";
    return { name, source: "parameters.model", serves: one(QUERIES.modelServes, name)?.serves ?? null };
  }
  function requestModel(fn, family, recorded) {
    const { name, source, serves } = chosenModel(family, recorded);
    if (serves === null) {
      throw new SvcError(SQLSTATE.invalid_parameter_value, `${fn}: model "${name}" (${source}) is not declared in svc_models`, {
        hint: `Start a worker with --model ${name}=PATH, or declare it: SELECT svc_model_declare(${quoteLiteral(name)}).`
      });
    }
    if (!serves.includes(family)) {
      throw new SvcError(SQLSTATE.invalid_parameter_value, `${fn}: model "${name}" (${source}) does not serve ${family} (it serves ${serves.join(", ")})`);
    }
    return name;
  }

  // src/extension/quotas.ts
  var limitOf = (value) => value === null || value === void 0 ? null : Number(value);
  function effectiveLimits(c) {
    const d = LIMITS.queueDefaults;
    const q2 = c.queue_limits ?? {};
    const r = c.role_limits ?? {};
    return {
      maxQueueSize: limitOf(q2.max_queue_size) ?? d.maxQueueSize,
      maxPending: limitOf(r.max_pending) ?? limitOf(q2.max_pending) ?? d.maxPending,
      maxStoredBytes: limitOf(r.max_stored_bytes) ?? limitOf(q2.max_stored_bytes) ?? d.maxStoredBytes
    };
  }
  function sessionQueueBound(current) {
    const value = current === void 0 ? one(QUERIES.setting, "svc.max_queue_size")?.value ?? null : current;
    return value === null || value.trim() === "" ? Number.MAX_SAFE_INTEGER : integerSetting("svc.max_queue_size", 1, value);
  }
  var carried = /* @__PURE__ */ new Map();
  function usageSince(roleId, afterSeq) {
    const u = one(QUERIES.roleUsage, roleId, afterSeq);
    return { pending: Number(u.pending), bytes: Number(u.bytes), lastSeq: Number(u.last_seq) };
  }
  var within = (u, limits) => u.pending <= limits.maxPending && u.bytes <= limits.maxStoredBytes;
  function checkRoleQuota(fn, role, limits, added) {
    const c = carried.get(role.id);
    if (c !== void 0) {
      const fresh = usageSince(role.id, c.lastSeq);
      const bound = { pending: c.pending + fresh.pending, bytes: c.bytes + fresh.bytes, lastSeq: Math.max(c.lastSeq, fresh.lastSeq) };
      if (within(bound, limits)) {
        carried.set(role.id, bound);
        return;
      }
    }
    const exact = usageSince(role.id, 0);
    carried.set(role.id, exact);
    if (within(exact, limits)) return;
    const hint = "Wait for your requests to finish or cancel some (svc_cancel_async); an svc_admin member sets the quotas (svc_set_role_limits).";
    if (exact.pending > limits.maxPending) {
      const before = exact.pending - added;
      const fits2 = Math.max(0, limits.maxPending - before);
      throw new SvcError(
        SQLSTATE.configuration_limit_exceeded,
        `${fn}: role "${role.name}" has reached its quota of requests (${before} pending or processing, max_pending = ${limits.maxPending}${added > 1 ? `; ${added} submitted, ${fits2} would fit` : ""})`,
        { hint }
      );
    }
    throw new SvcError(
      SQLSTATE.configuration_limit_exceeded,
      `${fn}: role "${role.name}" has reached its quota of stored bytes (its requests pending or processing would store ${exact.bytes} bytes with this call's, max_stored_bytes = ${limits.maxStoredBytes})`,
      { hint }
    );
  }
  function roleQuotaCheck(fn, roleId, added) {
    const capacity = one(QUERIES.capacity, String(roleId));
    checkRoleQuota(String(fn), { id: capacity.role_id, name: capacity.role }, effectiveLimits(capacity), Number(added));
  }
  function limitArgument(fn, name, value, min) {
    if (value === null || value === void 0) return null;
    const n = typeof value === "bigint" || typeof value === "string" ? Number(value) : value;
    if (typeof n !== "number" || !Number.isSafeInteger(n) || n < min) throw parameterError(fn, name, `must be NULL (the default) or an integer of at least ${min}`);
    return n;
  }
  function putQueueLimits(changes) {
    const current = one(QUERIES.configGet, "queue_limits")?.value ?? {};
    const next = { ...current };
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) delete next[key];
      else next[key] = value;
    }
    if (Object.keys(next).length === 0) one(QUERIES.configDelete, "queue_limits");
    else one(QUERIES.configPut, "queue_limits", next);
  }
  function setRoleLimits(roleName, maxPending, maxStoredBytes) {
    const fn = "svc_set_role_limits";
    const pending = limitArgument(fn, "max_pending", maxPending, 0);
    const bytes = limitArgument(fn, "max_stored_bytes", maxStoredBytes, 0);
    if (roleName === null || roleName === void 0) {
      putQueueLimits({ max_pending: pending, max_stored_bytes: bytes });
      return;
    }
    const role = text(fn, "role_name", roleName, { maxChars: 63 });
    const id = one(QUERIES.roleId, role)?.id;
    if (id === void 0) throw parameterError(fn, "role_name", `must name an existing role (there is no role "${role}")`, {}, SQLSTATE.undefined_object);
    if (pending === null && bytes === null) one(QUERIES.roleLimitsDelete, id);
    else one(QUERIES.roleLimitsPut, id, pending, bytes);
  }
  function setQueueLimits(maxQueueSize) {
    putQueueLimits({ max_queue_size: limitArgument("svc_set_queue_limits", "max_queue_size", maxQueueSize, 1) });
  }
  function queueLimits() {
    const row = one(QUERIES.sessionLimits);
    const limits = effectiveLimits(row);
    const usage = usageSince(row.role_id, 0);
    carried.set(row.role_id, usage);
    return [{
      role_name: row.role,
      max_queue_size: limits.maxQueueSize,
      queue_depth: Number(row.depth),
      max_pending: limits.maxPending,
      pending: usage.pending,
      max_stored_bytes: limits.maxStoredBytes,
      stored_bytes: usage.bytes
    }];
  }

  // src/grammar/gbnf-format.ts
  var LLAMA_MAX_REPETITION = 2e3;
  var REPETITION_CHUNK = 1e3;
  var DEFAULT_LIMITS = { maxGrammarChars: 1e6, maxExpandedSize: 2e6 };
  function hex(codePoint, width) {
    return codePoint.toString(16).toUpperCase().padStart(width, "0");
  }
  function escapeCodePoint(codePoint, specials) {
    const ch = String.fromCodePoint(codePoint);
    if (codePoint >= 32 && codePoint < 127) return specials.includes(ch) ? "\\" + ch : ch;
    if (codePoint === 10) return "\\n";
    if (codePoint === 13) return "\\r";
    if (codePoint === 9) return "\\t";
    if (codePoint < 128) return "\\x" + hex(codePoint, 2);
    if (codePoint <= 65535) return "\\u" + hex(codePoint, 4);
    return "\\U" + hex(codePoint, 8);
  }
  function formatLiteral(text3) {
    let out = '"';
    for (const ch of text3) out += escapeCodePoint(ch.codePointAt(0), '"\\');
    return out + '"';
  }
  function classChar(codePoint) {
    if (codePoint === 45 || codePoint === 94) return "\\x" + hex(codePoint, 2);
    return escapeCodePoint(codePoint, '\\]["');
  }
  function formatClass(ranges, negated) {
    let out = negated ? "[^" : "[";
    for (const [lo, hi] of ranges) {
      if (lo === hi) out += classChar(lo);
      else if (hi === lo + 1) out += classChar(lo) + classChar(hi);
      else out += classChar(lo) + "-" + classChar(hi);
    }
    return out + "]";
  }
  function exactly(body, count) {
    if (count === 0) return EMPTY;
    if (count <= LLAMA_MAX_REPETITION) return repeat(body, count, count);
    const chunk = repeat(body, REPETITION_CHUNK, REPETITION_CHUNK);
    return seq(exactly(chunk, Math.floor(count / REPETITION_CHUNK)), exactly(body, count % REPETITION_CHUNK));
  }
  function upTo(body, max) {
    if (max <= LLAMA_MAX_REPETITION) return repeat(body, 0, max);
    const chunk = repeat(body, REPETITION_CHUNK, REPETITION_CHUNK);
    const q2 = Math.floor(max / REPETITION_CHUNK);
    const r = max % REPETITION_CHUNK;
    const low = seq(upTo(chunk, q2), repeat(body, 0, r));
    if (r === REPETITION_CHUNK - 1) return low;
    return alt(low, seq(upTo(chunk, q2 - 1), repeat(body, r + 1, REPETITION_CHUNK - 1)));
  }
  function boundedRepeat(body, min, max) {
    if (min <= LLAMA_MAX_REPETITION && (max === null || max <= LLAMA_MAX_REPETITION)) return repeat(body, min, max);
    if (max === null) return seq(exactly(body, min), repeat(body, 0, null));
    return seq(exactly(body, min), upTo(body, max - min));
  }
  function wrap(text3, inner, outer) {
    return inner < outer ? `(${text3})` : text3;
  }
  function formatRepeatSuffix(min, max) {
    if (min === 0 && max === 1) return "?";
    if (min === 0 && max === null) return "*";
    if (min === 1 && max === null) return "+";
    if (max === null) return `{${min},}`;
    if (min === max) return `{${min}}`;
    return `{${min},${max}}`;
  }
  function formatExpr(expr, outer, merge = true) {
    const own2 = formatNode(expr, merge);
    return wrap(own2.text, own2.precedence, outer);
  }
  function formatNode(expr, merge) {
    switch (expr.kind) {
      case "literal":
        return { text: formatLiteral(expr.text), precedence: 2 /* Atom */ };
      case "class":
        return { text: formatClass(expr.ranges, expr.negated), precedence: 2 /* Atom */ };
      case "ref":
        return { text: expr.name, precedence: 2 /* Atom */ };
      case "alt": {
        if (expr.options.length === 0) throw new ConstraintError("unsatisfiable", "an empty alternation matches nothing");
        const options = [...new Set(expr.options.map((o) => formatExpr(o, 1 /* Seq */, merge)))];
        return { text: options.join(" | "), precedence: options.length > 1 ? 0 /* Alt */ : 1 /* Seq */ };
      }
      case "seq": {
        const parts = mergeRuns(expr.items, merge).map((run3) => formatRepeat(run3.body, run3.text, run3.min, run3.max));
        if (parts.length === 0) return { text: '""', precedence: 2 /* Atom */ };
        return { text: parts.join(" "), precedence: parts.length > 1 ? 1 /* Seq */ : 2 /* Atom */ };
      }
      case "repeat": {
        const bodyText = expr.max === 0 ? '""' : formatExpr(expr.body, 2 /* Atom */, merge);
        return { text: formatRepeat(expr.body, bodyText, expr.min, expr.max), precedence: 2 /* Atom */ };
      }
    }
  }
  function formatRepeat(body, bodyText, min, max) {
    if (max !== null && max < min)
      throw new ConstraintError("unsatisfiable", `repetition {${min},${max}} matches nothing`);
    if (max === 0) return '""';
    if (min === 1 && max === 1) return bodyText;
    let text3 = body.kind === "repeat" ? `(${bodyText})` : bodyText;
    if (hoisting && repeatedRules(text3) * repetitionRules(min, max === null ? Infinity : Math.min(max, LLAMA_MAX_REPETITION)) > LLAMA_MAX_REPETITION) {
      text3 = hoisting.ruleFor(text3);
    }
    if (min > LLAMA_MAX_REPETITION || max !== null && max > LLAMA_MAX_REPETITION) {
      return formatExpr(boundedRepeat({ kind: "ref", name: text3 }, min, max), 2 /* Atom */, false);
    }
    return text3 + formatRepeatSuffix(min, max);
  }
  function mergeRuns(items, merge) {
    const runs = [];
    for (const item of items) {
      const body = item.kind === "repeat" ? item.body : item;
      const min = item.kind === "repeat" ? item.min : 1;
      const max = item.kind === "repeat" ? item.max : 1;
      const text3 = formatExpr(body, 2 /* Atom */, merge);
      const last = runs[runs.length - 1];
      if (merge && last && last.text === text3) {
        last.min += min;
        last.max = last.max === null || max === null ? null : last.max + max;
      } else {
        runs.push({ body, text: text3, min, max });
      }
    }
    return runs;
  }
  function formatRuleBody(expr) {
    return formatExpr(expr, 0 /* Alt */);
  }
  function suffixRules(min, max) {
    return max === null ? 1 : max - min;
  }
  function repetitionRules(min, max) {
    if (Number.isFinite(max) && max > 0) return max;
    return min > 0 ? min : 1;
  }
  function endOfAtom(text3, at3) {
    const close = text3[at3] === '"' ? '"' : text3[at3] === "[" ? "]" : null;
    if (close === null) {
      let end2 = at3;
      while (end2 < text3.length && /[A-Za-z0-9-]/.test(text3[end2])) end2++;
      return end2;
    }
    let end = at3 + 1;
    while (end < text3.length && text3[end] !== close) end += text3[end] === "\\" ? 2 : 1;
    return end + 1;
  }
  function suffixAt(text3, at3) {
    const ch = text3[at3];
    if (ch === "?") return { min: 0, max: 1, end: at3 + 1 };
    if (ch === "*") return { min: 0, max: null, end: at3 + 1 };
    if (ch === "+") return { min: 1, max: null, end: at3 + 1 };
    if (ch !== "{") return null;
    const close = text3.indexOf("}", at3);
    const [lo, hi] = text3.slice(at3 + 1, close).split(",");
    const min = Number(lo);
    const max = hi === void 0 ? min : hi === "" || Number(hi) > LLAMA_MAX_REPETITION ? null : Number(hi);
    return { min, max, end: close + 1 };
  }
  function rulesCreated(text3) {
    let rules = 0;
    for (let at3 = 0; at3 < text3.length; ) {
      const ch = text3[at3];
      const suffix = suffixAt(text3, at3);
      if (suffix) {
        rules += suffixRules(suffix.min, suffix.max);
        at3 = suffix.end;
      } else if (ch === "(") {
        rules++;
        at3++;
      } else if (ch === '"' || ch === "[" || /[A-Za-z0-9-]/.test(ch)) {
        if (ch !== '"' && ch !== "[") rules++;
        at3 = endOfAtom(text3, at3);
      } else {
        at3++;
      }
    }
    return rules;
  }
  function repeatedRules(item) {
    let end;
    let rules;
    if (item[0] === "(") {
      let depth = 0;
      end = 0;
      for (; end < item.length; end++) {
        const ch = item[end];
        if (ch === '"' || ch === "[") end = endOfAtom(item, end) - 1;
        else if (ch === "(") depth++;
        else if (ch === ")" && --depth === 0) break;
      }
      end++;
      rules = Math.max(1, rulesCreated(item.slice(0, end)));
    } else {
      end = endOfAtom(item, 0);
      rules = 1;
    }
    for (let suffix = suffixAt(item, end); suffix; suffix = suffixAt(item, suffix.end)) {
      rules *= repetitionRules(suffix.min, suffix.max ?? Infinity);
    }
    return rules;
  }
  var Hoister = class {
    constructor(taken) {
      __publicField(this, "taken", taken);
      __publicField(this, "lines", []);
      __publicField(this, "byText", /* @__PURE__ */ new Map());
      __publicField(this, "next", 1);
    }
    ruleFor(text3) {
      let name = this.byText.get(text3);
      if (name === void 0) {
        do
          name = `repeated-${this.next++}`;
        while (this.taken.has(name));
        this.byText.set(text3, name);
        this.lines.push(`${name} ::= ${text3}`);
      }
      return name;
    }
  };
  var hoisting = null;
  function formatGrammar(grammar) {
    const lines = [];
    const outer = hoisting;
    const hoister = new Hoister(grammar.rules);
    hoisting = hoister;
    try {
      const root = grammar.rules.get(grammar.root);
      if (root) lines.push(`${grammar.root} ::= ${formatRuleBody(root)}`);
      for (const [name, body] of grammar.rules) {
        if (name !== grammar.root) lines.push(`${name} ::= ${formatRuleBody(body)}`);
      }
    } finally {
      hoisting = outer;
    }
    return [...lines, ...hoister.lines].join("\n") + "\n";
  }
  var expandedSizes = /* @__PURE__ */ new WeakMap();
  function expandedSize(expr) {
    let size = expandedSizes.get(expr);
    if (size === void 0) {
      size = Math.min(Number.MAX_SAFE_INTEGER, nodeExpandedSize(expr));
      expandedSizes.set(expr, size);
    }
    return size;
  }
  function codePointCount(text3) {
    let count = text3.length;
    for (let i = 1; i < text3.length; i++) {
      const unit = text3.charCodeAt(i);
      if (unit >= 56320 && unit <= 57343) {
        const before = text3.charCodeAt(i - 1);
        if (before >= 55296 && before <= 56319) count--;
      }
    }
    return count;
  }
  function nodeExpandedSize(expr) {
    switch (expr.kind) {
      case "literal":
        return Math.max(1, codePointCount(expr.text));
      case "class":
        return 1 + expr.ranges.length;
      case "ref":
        return 1;
      case "seq":
        return expr.items.reduce((sum, item) => sum + expandedSize(item), 0);
      case "alt":
        return expr.options.reduce((sum, option) => sum + expandedSize(option), 1);
      case "repeat": {
        const copies = Math.max(1, expr.max ?? expr.min + 1);
        return expandedSize(expr.body) * copies + 1;
      }
    }
  }
  function checkExpandedSize(grammar, limits) {
    let total = 0;
    for (const body of grammar.rules.values()) total += expandedSize(body);
    if (total > limits.maxExpandedSize) {
      throw new ConstraintError(
        "too-large",
        `grammar expands to about ${total} elements once repetitions are unrolled, above the limit of ${limits.maxExpandedSize}`
      );
    }
  }
  function checkBodySize(body, limits) {
    const size = expandedSize(body);
    if (size > limits.maxExpandedSize) {
      throw new ConstraintError(
        "too-large",
        `a grammar rule expands to about ${size} elements once repetitions are unrolled, above the limit of ${limits.maxExpandedSize}`
      );
    }
  }
  function checkGrammarChars(text3, limits) {
    if (text3.length > limits.maxGrammarChars) {
      throw new ConstraintError(
        "too-large",
        `grammar is ${text3.length} characters, above the limit of ${limits.maxGrammarChars}`
      );
    }
  }

  // src/grammar/grammar-builder.ts
  var GrammarBuilder = class {
    constructor(limits = DEFAULT_LIMITS) {
      __publicField(this, "limits", limits);
      __publicField(this, "rules", /* @__PURE__ */ new Map());
      __publicField(this, "byBody", /* @__PURE__ */ new Map());
      __publicField(this, "nextSuffix", /* @__PURE__ */ new Map());
      /**
       * Characters of the rules made so far that may reach the grammar: a grammar past the limit is
       * refused before the rest is built. Work a caller discards (a branch that matched nothing, the
       * rest of a schema that enum values were checked against) is taken back out (discard), so only
       * rules that can reach the emitted grammar count: counting every rule made refused a schema whose
       * grammar is 398,458 characters as "more than 1,000,000" (issue #48).
       */
      __publicField(this, "chars", 0);
      /** Characters each rule made with rule() adds, and which of them are counted now. */
      __publicField(this, "ruleChars", /* @__PURE__ */ new Map());
      __publicField(this, "counted", /* @__PURE__ */ new Set());
      /** Rules in the order they were counted, so that discard() can take back what came after a mark. */
      __publicField(this, "countLog", []);
      /** Work that may be dropped. */
      __publicField(this, "opened", 0);
      /** Counts the builder's own work (formatting each rule's body to find its twin) in a compile's work bound. */
      __publicField(this, "spend");
      this.rules.set("root", null);
    }
    /** Reserves a unique rule name (for recursive rules, defined later). */
    reserve(hint) {
      const base = sanitizeRuleName(hint);
      let name = base;
      let i = this.nextSuffix.get(base) ?? 2;
      if (this.rules.has(name)) for (; this.rules.has(name = `${base}-${i}`); i++) ;
      this.nextSuffix.set(base, name === base ? i : i + 1);
      this.rules.set(name, null);
      return name;
    }
    /** A rule's body, once defined. */
    bodyOf(name) {
      return this.rules.get(name) ?? void 0;
    }
    define(name, body) {
      checkDepth(body, name);
      this.rules.set(name, body);
    }
    /** A reference to a rule with this body, reusing an existing rule with the same body. */
    rule(hint, body) {
      checkDepth(body, hint);
      checkBodySize(body, this.limits);
      const key = formatRuleBody(body);
      this.spend?.(1 + Math.floor(key.length / 64));
      const existing = this.byBody.get(key);
      if (existing) {
        if (!this.counted.has(existing)) this.count(existing);
        return { kind: "ref", name: existing };
      }
      const name = this.reserve(hint);
      this.define(name, body);
      this.byBody.set(key, name);
      this.ruleChars.set(name, name.length + key.length + 5);
      this.count(name);
      return { kind: "ref", name };
    }
    /** Counts a rule, and the discarded rules it reaches (they reach the grammar with it). */
    count(name) {
      const pending = [name];
      let walked = 0;
      while (pending.length) {
        const next = pending.pop();
        const chars = this.ruleChars.get(next);
        if (chars === void 0 || this.counted.has(next)) continue;
        if (++walked % 16 === 0) this.spend?.(1);
        this.counted.add(next);
        this.countLog.push(next);
        this.chars += chars;
        forEachRef(this.rules.get(next), (inner) => pending.push(inner));
      }
      this.checkChars();
    }
    /**
     * Past the limit, refused; inside work that may yet be dropped (open), only past twice the limit,
     * so that what is dropped never refuses a grammar, and otherwise when that work is kept (close).
     */
    checkChars() {
      const limit = this.limits.maxGrammarChars;
      if (this.chars > limit && (this.opened === 0 || this.chars > 2 * limit)) {
        throw new ConstraintError("too-large", `grammar is more than ${limit} characters, the limit`);
      }
    }
    /** Starts work the caller may drop; returns the mark to close it with. */
    open() {
      this.opened++;
      return this.countLog.length;
    }
    /**
     * Ends work started with open(): kept, or dropped, and then the rules counted since the mark no
     * longer count (they stay defined, and count again when a later rule() of the same body uses one).
     */
    close(mark, keep) {
      this.opened--;
      if (!keep) {
        while (this.countLog.length > mark) {
          const name = this.countLog.pop();
          this.counted.delete(name);
          this.chars -= this.ruleChars.get(name);
        }
      }
      this.checkChars();
    }
    /** The grammar with this root, keeping only the rules it reaches. */
    build(rootBody) {
      checkDepth(rootBody, "root");
      this.rules.set("root", rootBody);
      const grammar = this.snapshot(rootBody, true);
      if (!grammar) throw new Error("internal: a reachable rule was reserved but never defined");
      return grammar;
    }
    /**
     * The grammar rooted at `rootBody` if every rule it reaches is defined already, else undefined;
     * its rules in the order they were made when `ordered` (the grammar that is emitted), else in the
     * order they are reached, in time proportional to them alone (enum values are judged by a
     * snapshot of the rest of their schema: walking every rule made so far for each was quadratic).
     */
    snapshot(rootBody, ordered = false) {
      const reached = /* @__PURE__ */ new Set(["root"]);
      const pending = [rootBody];
      while (pending.length) {
        const expr = pending.pop();
        forEachRef(expr, (name) => {
          if (reached.has(name)) return;
          reached.add(name);
          const body = this.rules.get(name);
          if (body) pending.push(body);
        });
      }
      this.spend?.(1 + Math.floor(reached.size / 64));
      const rules = /* @__PURE__ */ new Map([["root", rootBody]]);
      if (ordered) {
        for (const [name, body] of this.rules) {
          if (name === "root" || !reached.has(name)) continue;
          if (body === null || body === void 0) return void 0;
          rules.set(name, body);
        }
        for (const name of reached) if (!rules.has(name)) return void 0;
      } else {
        for (const name of reached) {
          if (name === "root") continue;
          const body = this.rules.get(name);
          if (body === null || body === void 0) return void 0;
          rules.set(name, body);
        }
      }
      return { rules, root: "root" };
    }
  };
  function checkDepth(body, rule) {
    const depth = exprDepth(body);
    if (depth > MAX_EXPR_DEPTH) {
      throw new ConstraintError(
        "too-deep",
        `grammar rule '${rule}' nests ${depth} levels deep, above the limit of ${MAX_EXPR_DEPTH}`
      );
    }
  }
  function forEachRef(expr, visit) {
    switch (expr.kind) {
      case "ref":
        visit(expr.name);
        return;
      case "seq":
        expr.items.forEach((item) => forEachRef(item, visit));
        return;
      case "alt":
        expr.options.forEach((option) => forEachRef(option, visit));
        return;
      case "repeat":
        forEachRef(expr.body, visit);
        return;
      default:
        return;
    }
  }
  function sanitizeRuleName(hint) {
    const cleaned = hint.replace(/[^a-zA-Z0-9-]+/g, "-").replace(/-+/g, "-").replace(/^-|-$/g, "").slice(0, 48);
    return cleaned === "" || cleaned === "root" ? "r" + (cleaned ? "-" + cleaned : "") : cleaned;
  }

  // src/grammar/gbnf-check.ts
  function leftmostRefs(expr, nullable, out) {
    switch (expr.kind) {
      case "ref":
        out.add(expr.name);
        return;
      case "seq":
        for (const item of expr.items) {
          leftmostRefs(item, nullable, out);
          if (!isNullable(item, nullable)) return;
        }
        return;
      case "alt":
        expr.options.forEach((option) => leftmostRefs(option, nullable, out));
        return;
      case "repeat":
        leftmostRefs(expr.body, nullable, out);
        return;
      default:
        return;
    }
  }
  function checkGrammar(grammar) {
    for (const [name, body] of grammar.rules) checkDepth(body, name);
    for (const body of grammar.rules.values()) {
      forEachRef(body, (name) => {
        if (!grammar.rules.has(name)) throw new ConstraintError("invalid-gbnf", `undefined rule '${name}'`);
      });
    }
    const nullable = nullableRules(grammar);
    const leftmost = /* @__PURE__ */ new Map();
    for (const [name, body] of grammar.rules) {
      const refs = /* @__PURE__ */ new Set();
      leftmostRefs(body, nullable, refs);
      leftmost.set(name, refs);
    }
    const cycle = findCycle(grammar.rules.keys(), leftmost);
    if (cycle) {
      throw new ConstraintError(
        "invalid-gbnf",
        `left recursion (${cycle.join(" -> ")}): the schema refers to itself before producing any character`
      );
    }
    if (derivationHeights(grammar).get(grammar.root) === Infinity) {
      throw new ConstraintError(
        "unsatisfiable",
        "the grammar has no finite output (unbounded recursion with no way out)"
      );
    }
  }
  function findCycle(names, edges) {
    const state = /* @__PURE__ */ new Map();
    for (const start2 of names) {
      if (state.has(start2)) continue;
      const path = [start2];
      const pending = [(edges.get(start2) ?? /* @__PURE__ */ new Set()).values()];
      state.set(start2, "active");
      while (path.length) {
        const next = pending[pending.length - 1].next();
        if (next.done) {
          state.set(path.pop(), "done");
          pending.pop();
          continue;
        }
        const name = next.value;
        if (state.get(name) === "active") return path.slice(path.indexOf(name)).concat(name);
        if (state.has(name)) continue;
        state.set(name, "active");
        path.push(name);
        pending.push((edges.get(name) ?? /* @__PURE__ */ new Set()).values());
      }
    }
    return void 0;
  }

  // src/grammar/factor.ts
  var FACTOR_GROUP = 8;
  var NESTING_PER_RULE = 64;
  function split(option, deref) {
    let expr = option;
    if (expr.kind === "ref") expr = deref(expr.name) ?? expr;
    if (expr.kind === "literal") return { head: [...expr.text], rest: [] };
    if (expr.kind === "seq" && expr.items[0].kind === "literal")
      return { head: [...expr.items[0].text], rest: expr.items.slice(1) };
    return { head: [], rest: [option] };
  }
  var join = (o) => seqOf([literal(o.head.join("")), ...o.rest]);
  function factorAlternatives(options, deref, share, group = FACTOR_GROUP) {
    const byFirst = /* @__PURE__ */ new Map();
    for (const option of options) {
      const first = split(option, deref).head[0];
      if (first !== void 0) byFirst.set(first, (byFirst.get(first) ?? 0) + 1);
    }
    if (![...byFirst.values()].some((n) => n > group)) return altOf(options);
    return merged(
      options.map((o) => split(o, deref)),
      0,
      share,
      group
    );
  }
  var MAX_INLINE_DEPTH = 200;
  function merged(options, depth, share, size) {
    const groups = /* @__PURE__ */ new Map();
    const order = [];
    for (const option of options) {
      const first = option.head[0];
      if (first === void 0) {
        order.push(option);
        continue;
      }
      let group = groups.get(first);
      if (!group) {
        groups.set(first, group = []);
        order.push(first);
      }
      group.push(option);
    }
    const out = [];
    for (const entry of order) {
      if (typeof entry !== "string") {
        out.push(join(entry));
        continue;
      }
      const group = groups.get(entry);
      if (group.length <= size || !share && depth >= MAX_INLINE_DEPTH) {
        for (const option of group) out.push(join(option));
        continue;
      }
      let common = 1;
      while (group.every((o) => common < o.head.length && o.head[common] === group[0].head[common])) common++;
      const tails = group.map((o) => ({ head: o.head.slice(common), rest: o.rest }));
      const ends = tails.filter((t) => t.head.length === 0);
      const branches = tails.filter((t) => t.head.length > 0);
      const alternatives = [];
      if (branches.length) alternatives.push(merged(branches, depth + 1, share, size));
      for (const end of ends) alternatives.push(end.rest.length ? seqOf(end.rest) : EMPTY);
      let body = altOf(alternatives.flatMap((a) => a.kind === "alt" ? a.options : [a]));
      if (share && (depth + 1) % NESTING_PER_RULE === 0) body = share(body);
      out.push(seqOf([literal(group[0].head.slice(0, common).join("")), body]));
    }
    return altOf(out);
  }

  // src/grammar/choices.ts
  function checkChoices(choices) {
    if (!Array.isArray(choices)) throw new ConstraintError("invalid-input", "choices must be an array of strings");
    if (choices.length === 0)
      throw new ConstraintError("invalid-input", "choices must not be empty: nothing could match");
    const seen = /* @__PURE__ */ new Map();
    choices.forEach((choice, index) => {
      if (typeof choice !== "string") {
        throw new ConstraintError(
          "invalid-input",
          `choice ${index} is ${choice === null ? "null" : typeof choice}, not a string`,
          { pointer: `/${index}` }
        );
      }
      if (choice === "") throw new ConstraintError("invalid-input", `choice ${index} is empty`, { pointer: `/${index}` });
      const first = seen.get(choice);
      if (first !== void 0) {
        const shown = choice.length > 200 ? JSON.stringify(choice.slice(0, 200)) + "\u2026" : JSON.stringify(choice);
        throw new ConstraintError("invalid-input", `choice ${index} repeats choice ${first}: ${shown}`, {
          pointer: `/${index}`
        });
      }
      seen.set(choice, index);
    });
    return choices;
  }
  function choicesToGrammar(choices, maxGrammarChars = Infinity) {
    const list = checkChoices(choices);
    const total = list.reduce((sum, choice) => sum + choice.length + 3, 0);
    if (total > maxGrammarChars) {
      throw new ConstraintError(
        "too-large",
        `choices take at least ${total} grammar characters, above the limit of ${maxGrammarChars}`
      );
    }
    const builder = new GrammarBuilder();
    return builder.build(
      factorAlternatives(
        list.map(literal),
        () => void 0,
        (body) => builder.rule("choices", body)
      )
    );
  }

  // src/grammar/json-primitives.ts
  var DEFAULT_INTEGER_DIGITS = 15;
  var digit = charClass([[48, 57]]);
  var nonZeroDigit = charClass([[49, 57]]);
  var hexDigit = charClass(
    normalizeRanges([
      [48, 57],
      [65, 70],
      [97, 102]
    ])
  );
  function naturalExpr(maxDigits = DEFAULT_INTEGER_DIGITS) {
    return alt(literal("0"), seq(nonZeroDigit, repeat(digit, 0, maxDigits - 1)));
  }
  function integerExpr() {
    return alt(literal("0"), seq(optional(literal("-")), nonZeroDigit, repeat(digit, 0, DEFAULT_INTEGER_DIGITS - 1)));
  }
  function numberExpr(allowNegative = true) {
    return seq(
      allowNegative ? optional(literal("-")) : literal(""),
      naturalExpr(),
      optional(seq(literal("."), repeat(digit, 1, 16))),
      optional(
        seq(
          charClass([
            [69, 69],
            [101, 101]
          ]),
          optional(
            charClass([
              [43, 43],
              [45, 45]
            ])
          ),
          repeat(digit, 1, 2)
        )
      )
    );
  }
  function stringCharExpr() {
    const raw2 = charClass(
      normalizeRanges([
        [0, 31],
        [34, 34],
        [92, 92],
        [127, 127]
      ]),
      true
    );
    const nonSurrogateHex4 = alt(
      seq(
        charClass(
          normalizeRanges([
            [48, 57],
            [65, 67],
            [97, 99],
            [69, 70],
            [101, 102]
          ])
        ),
        repeat(hexDigit, 3, 3)
      ),
      seq(
        charClass([
          [68, 68],
          [100, 100]
        ]),
        charClass([[48, 55]]),
        repeat(hexDigit, 2, 2)
      )
    );
    const escape2 = seq(
      literal("\\"),
      alt(
        charClass(
          normalizeRanges(['"', "\\", "/", "b", "f", "n", "r", "t"].map((c) => [c.charCodeAt(0), c.charCodeAt(0)]))
        ),
        seq(literal("u"), nonSurrogateHex4)
      )
    );
    return alt(raw2, escape2);
  }
  var JsonRules = class {
    constructor(builder) {
      __publicField(this, "builder", builder);
      __publicField(this, "cache", /* @__PURE__ */ new Map());
    }
    once(name, make) {
      let expr = this.cache.get(name);
      if (!expr) {
        expr = this.builder.rule(name, make());
        this.cache.set(name, expr);
      }
      return expr;
    }
    char() {
      return this.once("char", stringCharExpr);
    }
    string() {
      return this.once("string", () => seq(literal('"'), repeat(this.char(), 0, null), literal('"')));
    }
    integer() {
      return this.once("integer", integerExpr);
    }
    number() {
      return this.once("number", () => numberExpr(true));
    }
    boolean() {
      return this.once("boolean", () => alt(literal("true"), literal("false")));
    }
    /** Any JSON value: the rules are mutually recursive, so they are reserved first. */
    value() {
      const cached = this.cache.get("value");
      if (cached) return cached;
      const value = this.builder.reserve("value");
      this.cache.set("value", ref(value));
      const object2 = this.builder.reserve("object");
      const array3 = this.builder.reserve("array");
      const member = seq(this.string(), literal(":"), ref(value));
      this.builder.define(
        object2,
        seq(literal("{"), optional(seq(member, repeat(seq(literal(","), member), 0, null))), literal("}"))
      );
      this.builder.define(
        array3,
        seq(literal("["), optional(seq(ref(value), repeat(seq(literal(","), ref(value)), 0, null))), literal("]"))
      );
      this.builder.define(
        value,
        alt(ref(object2), ref(array3), this.string(), this.number(), this.boolean(), literal("null"))
      );
      return ref(value);
    }
  };

  // src/grammar/schema-size.ts
  var DEFAULT_MAX_SCHEMA_CHARS = 1e6;
  function refuseOversizedSchema(schema, maxChars = DEFAULT_MAX_SCHEMA_CHARS) {
    let chars = 0;
    const over = () => new ConstraintError(
      "too-large",
      `the schema is more than ${maxChars} characters as JSON text, the limit (objects used in several places count at each)`
    );
    const pending = [schema];
    while (pending.length > 0) {
      const value = pending.pop();
      if (typeof value === "string") chars += value.length + 2;
      else if (typeof value === "number") chars += String(value).length;
      else if (typeof value === "boolean") chars += value ? 4 : 5;
      else if (Array.isArray(value)) {
        chars += 1 + Math.max(1, value.length);
        if (chars > maxChars) throw over();
        for (let i = value.length - 1; i >= 0; i--) pending.push(value[i]);
      } else if (typeof value === "object" && value !== null) {
        const keys2 = Object.keys(value);
        chars += 1 + Math.max(1, keys2.length) + 3 * keys2.length;
        if (chars > maxChars) throw over();
        for (let i = keys2.length - 1; i >= 0; i--) {
          chars += keys2[i].length;
          pending.push(value[keys2[i]]);
        }
      } else chars += 4;
      if (chars > maxChars) throw over();
    }
  }

  // src/grammar/drafts.ts
  var STANDARD_KEYWORDS = /* @__PURE__ */ new Set([
    // core
    "$schema",
    "$id",
    "$ref",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$recursiveRef",
    "$recursiveAnchor",
    "$vocabulary",
    "$comment",
    "$defs",
    "definitions",
    // applicators
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "dependentSchemas",
    "dependencies",
    "prefixItems",
    "items",
    "additionalItems",
    "contains",
    "properties",
    "patternProperties",
    "additionalProperties",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    // validation
    "type",
    "enum",
    "const",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxContains",
    "minContains",
    "maxProperties",
    "minProperties",
    "required",
    "dependentRequired",
    // meta-data, format, content
    "title",
    "description",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    "examples",
    "format",
    "contentEncoding",
    "contentMediaType",
    "contentSchema"
  ]);
  var SCHEMA_MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];
  var SCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"];
  var SCHEMA_VALUES = [
    "items",
    "additionalItems",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contentSchema"
  ];
  var isObject = (value) => typeof value === "object" && value !== null && !Array.isArray(value);
  var hasOwn = (object2, key) => Object.prototype.hasOwnProperty.call(object2, key);
  function setOwn(object2, key, value) {
    Object.defineProperty(object2, key, { value, writable: true, enumerable: true, configurable: true });
  }
  function declaredDraft(schema) {
    const uri = isObject(schema) && typeof schema.$schema === "string" ? schema.$schema : "";
    if (/draft-0[34]\b/.test(uri)) return "draft-04";
    if (/draft-06\b/.test(uri)) return "draft-06";
    if (/draft-07\b/.test(uri)) return "draft-07";
    if (/2019-09/.test(uri)) return "2019-09";
    if (/2020-12/.test(uri)) return "2020-12";
    return void 0;
  }
  var MAX_OBJECT_PROPERTIES = 2e3;
  function refuseTooManyProperties(count, pointer) {
    if (count <= MAX_OBJECT_PROPERTIES) return;
    throw new ConstraintError(
      "too-large",
      `an object of ${count} properties (properties and required) is above the limit of ${MAX_OBJECT_PROPERTIES}`,
      {
        pointer,
        keyword: "properties"
      }
    );
  }
  var ANCHOR_NAME = /^[A-Za-z_][-A-Za-z0-9._]*$/;
  function normalizeSchema(input, options = {}) {
    const declared = declaredDraft(input);
    const maxDepth = options.maxDepth ?? 64;
    const extra = new Set(options.annotations ?? []);
    const idIsKeyword = declared === "draft-04" || declared === void 0;
    let spellings;
    const saw = (draft) => spellings ??= draft;
    const written = /* @__PURE__ */ new WeakSet();
    const refs = [];
    const anchors = /* @__PURE__ */ new Set();
    const validatorRefs = [];
    const walk = (schema2, pointer, depth, validatorOnly = false) => {
      if (!isObject(schema2) || depth > maxDepth) return schema2;
      const out = {};
      written.add(out);
      for (const [keyword, value] of Object.entries(schema2)) {
        if (STANDARD_KEYWORDS.has(keyword) || extra.has(keyword)) setOwn(out, keyword, value);
        else if (keyword === "id" && idIsKeyword && typeof value === "string") saw("draft-04");
        else if (options.strict) {
          throw new ConstraintError(
            "unsupported-keyword",
            `unknown keyword '${keyword}' (strict: only the standard vocabularies' keywords are allowed)`,
            {
              pointer: pointerChild(pointer, keyword),
              keyword
            }
          );
        } else if (keyword !== "$async" && keyword !== "id") setOwn(out, keyword, value);
      }
      delete out.$schema;
      if (typeof out.$ref === "string") refs.push(out.$ref = movedRef(input, out.$ref));
      if (validatorOnly) {
        checkCompiledShapes(out, pointer);
        if (typeof out.$ref === "string") validatorRefs.push({ ref: out.$ref, pointer: pointerChild(pointer, "$ref") });
      }
      const id = idIsKeyword && typeof schema2.id === "string" && !hasOwn(schema2, "$id") ? schema2.id : void 0;
      splitId(out, id ?? (typeof out.$id === "string" ? out.$id : void 0), depth === 0);
      for (const [exclusive, bound] of [
        ["exclusiveMinimum", "minimum"],
        ["exclusiveMaximum", "maximum"]
      ]) {
        if (typeof out[exclusive] !== "boolean") continue;
        saw("draft-04");
        if (out[exclusive] === true && typeof out[bound] === "number") {
          out[exclusive] = out[bound];
          delete out[bound];
        } else delete out[exclusive];
      }
      if (Array.isArray(out.items)) {
        saw("draft-07");
        out.prefixItems = out.items;
        if (hasOwn(out, "additionalItems")) out.items = out.additionalItems;
        else delete out.items;
        delete out.additionalItems;
      } else if (hasOwn(out, "additionalItems")) {
        saw("draft-07");
        delete out.additionalItems;
      }
      if (isObject(out.dependencies)) {
        saw("draft-07");
        const required = isObject(out.dependentRequired) ? { ...out.dependentRequired } : {};
        const schemas = isObject(out.dependentSchemas) ? { ...out.dependentSchemas } : {};
        for (const [name, dependency] of Object.entries(out.dependencies)) {
          if (typeof dependency === "string") setOwn(required, name, [dependency]);
          else if (Array.isArray(dependency) ? dependency.every((item) => typeof item === "string") : typeof dependency === "boolean" || isObject(dependency)) {
            setOwn(Array.isArray(dependency) ? required : schemas, name, dependency);
          } else {
            throw new ConstraintError(
              "invalid-input",
              "dependencies must be an object of property-name arrays or schemas",
              {
                pointer: pointerChild(pointerChild(pointer, "dependencies"), name),
                keyword: "dependencies"
              }
            );
          }
        }
        delete out.dependencies;
        if (Object.keys(required).length) out.dependentRequired = required;
        if (Object.keys(schemas).length) out.dependentSchemas = schemas;
      }
      if (hasOwn(out, "definitions")) saw("draft-07");
      if (typeof out.$anchor === "string" && ANCHOR_NAME.test(out.$anchor)) {
        if (anchors.has(out.$anchor)) delete out.$anchor;
        else anchors.add(out.$anchor);
      }
      checkValidatedShapes(out, pointer);
      const child2 = (value, path, keyword) => walk(
        value,
        path,
        depth + 1,
        validatorOnly || VALIDATED_SUBSCHEMAS.includes(keyword) || keyword === "patternProperties" || keyword === "dependentSchemas"
      );
      for (const keyword of SCHEMA_MAPS) {
        const map = out[keyword];
        if (!isObject(map)) continue;
        if (keyword === "properties") refuseTooManyProperties(Object.keys(map).length, pointer);
        const copy = {};
        written.add(copy);
        for (const [name, sub] of Object.entries(map))
          setOwn(copy, name, child2(sub, pointerChild(pointerChild(pointer, keyword), name), keyword));
        out[keyword] = copy;
        if (keyword === "properties") hoistRequired(out, copy);
      }
      for (const keyword of SCHEMA_LISTS) {
        const list = out[keyword];
        if (!Array.isArray(list)) continue;
        const copy = list.map((sub, i) => child2(sub, pointerChild(pointerChild(pointer, keyword), i), keyword));
        written.add(copy);
        out[keyword] = copy;
      }
      for (const keyword of SCHEMA_VALUES)
        if (hasOwn(out, keyword)) out[keyword] = child2(out[keyword], pointerChild(pointer, keyword), keyword);
      return out;
    };
    const schema = walk(input, "", 0);
    if (isObject(schema))
      for (let i = 0; i < refs.length; i++)
        adoptRefTarget(schema, refs[i], written, (target, pointer) => walk(target, pointer, 1));
    for (const { ref: ref2, pointer } of validatorRefs) {
      if (!resolves(schema, ref2, anchors))
        throw new ConstraintError("unresolved-ref", `$ref '${ref2}' points to nothing in this schema`, {
          pointer,
          keyword: "$ref"
        });
    }
    return { schema, draft: declared ?? spellings ?? "2020-12" };
  }
  function splitId(out, id, isRoot) {
    delete out.$id;
    if (id === void 0) return;
    const hash = id.indexOf("#");
    const base = hash < 0 ? id : id.slice(0, hash);
    const fragment = hash < 0 ? "" : id.slice(hash + 1);
    if (isRoot && base !== "") out.$id = base;
    if (fragment !== "" && ANCHOR_NAME.test(fragment) && !hasOwn(out, "$anchor")) out.$anchor = fragment;
  }
  function movedRef(root, ref2) {
    const hash = ref2.indexOf("#");
    if (hash < 0 || ref2[hash + 1] !== "/") return ref2;
    const segments = ref2.slice(hash + 2).split("/");
    const decode = (segment) => {
      try {
        return decodeURIComponent(segment).replace(/~1/g, "/").replace(/~0/g, "~");
      } catch {
        return void 0;
      }
    };
    let node = root;
    let at3 = "schema";
    let changed = false;
    const out = [];
    for (const segment of segments) {
      const key = decode(segment);
      if (key === void 0) return ref2;
      let spelled = segment;
      let next = "other";
      if (at3 === "schema" && isObject(node)) {
        if (key === "items" && Array.isArray(node.items)) [spelled, next] = ["prefixItems", "list"];
        else if (key === "additionalItems" && Array.isArray(node.items)) [spelled, next] = ["items", "schema"];
        else if (key === "dependencies") next = "dependencies";
        else if (SCHEMA_MAPS.includes(key)) next = "map";
        else if (SCHEMA_LISTS.includes(key) || key === "items") next = Array.isArray(node[key]) ? "list" : "schema";
        else if (SCHEMA_VALUES.includes(key)) next = "schema";
      } else if (at3 === "dependencies" && isObject(node)) {
        const dependency = hasOwn(node, key) ? node[key] : void 0;
        out[out.length - 1] = Array.isArray(dependency) ? "dependentRequired" : "dependentSchemas";
        changed = true;
        next = Array.isArray(dependency) ? "other" : "schema";
      } else if (at3 === "map" || at3 === "list") next = "schema";
      if (spelled !== segment) changed = true;
      out.push(spelled);
      node = (isObject(node) || Array.isArray(node)) && hasOwn(node, key) ? node[key] : void 0;
      at3 = next;
    }
    return changed ? `${ref2.slice(0, hash)}#/${out.join("/")}` : ref2;
  }
  function adoptRefTarget(root, ref2, written, walkTarget) {
    if (!ref2.startsWith("#/")) return;
    const segments = [];
    for (const segment of ref2.slice(2).split("/")) {
      try {
        segments.push(decodeURIComponent(segment).replace(/~1/g, "/").replace(/~0/g, "~"));
      } catch {
        return;
      }
    }
    let node = root;
    for (let i = 0; i < segments.length; i++) {
      const key = segments[i];
      if (!hasOwn(node, key)) return;
      const child2 = node[key];
      if (typeof child2 !== "object" || child2 === null) return;
      if (i === segments.length - 1) {
        if (!written.has(child2) && isObject(child2)) setOwn(node, key, walkTarget(child2, ref2.slice(1)));
        return;
      }
      if (written.has(child2)) {
        node = child2;
        continue;
      }
      const copy = Array.isArray(child2) ? [...child2] : Object.defineProperties({}, Object.getOwnPropertyDescriptors(child2));
      written.add(copy);
      setOwn(node, key, copy);
      node = copy;
    }
  }
  var VALIDATED_SUBSCHEMAS = [
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems"
  ];
  function checkValidatedShapes(out, pointer) {
    const refuse = (keyword, what, at3 = pointerChild(pointer, keyword)) => {
      throw new ConstraintError("invalid-input", `${keyword} must be ${what}`, { pointer: at3, keyword });
    };
    const isSchema = (value) => typeof value === "boolean" || isObject(value);
    for (const keyword of VALIDATED_SUBSCHEMAS)
      if (hasOwn(out, keyword) && !isSchema(out[keyword])) refuse(keyword, "a schema (an object or a boolean)");
    if (hasOwn(out, "multipleOf") && !(typeof out.multipleOf === "number" && out.multipleOf > 0))
      refuse("multipleOf", "a number above 0");
    for (const keyword of ["minContains", "maxContains"]) {
      const value = out[keyword];
      if (hasOwn(out, keyword) && !(typeof value === "number" && Number.isInteger(value) && value >= 0))
        refuse(keyword, "a non-negative integer");
    }
    if (hasOwn(out, "uniqueItems") && typeof out.uniqueItems !== "boolean") refuse("uniqueItems", "a boolean");
    if (hasOwn(out, "format") && typeof out.format !== "string") refuse("format", "a string");
    if (hasOwn(out, "$anchor") && !(typeof out.$anchor === "string" && ANCHOR_NAME.test(out.$anchor)))
      refuse("$anchor", "a plain name (a letter or _, then letters, digits, -, _ and .)");
    if (hasOwn(out, "dependentRequired")) {
      const map = out.dependentRequired;
      if (!isObject(map)) refuse("dependentRequired", "an object");
      for (const [name, list] of Object.entries(map)) {
        if (!Array.isArray(list) || list.some((item) => typeof item !== "string")) {
          refuse(
            "dependentRequired",
            "an object of arrays of property names",
            pointerChild(pointerChild(pointer, "dependentRequired"), name)
          );
        }
      }
    }
    for (const keyword of ["dependentSchemas", "patternProperties"]) {
      if (!hasOwn(out, keyword)) continue;
      const map = out[keyword];
      if (!isObject(map)) refuse(keyword, "an object");
      for (const [name, sub] of Object.entries(map)) {
        const at3 = pointerChild(pointerChild(pointer, keyword), name);
        if (!isSchema(sub)) refuse(keyword, "an object of schemas", at3);
        if (keyword === "patternProperties" && !validPattern(name)) {
          throw new ConstraintError("invalid-regex", `patternProperties: '${name}' is not a valid regex`, {
            pointer: at3,
            keyword
          });
        }
      }
    }
  }
  function validPattern(pattern) {
    for (const flags of ["u", ""]) {
      try {
        new RegExp(pattern, flags);
        return true;
      } catch {
      }
    }
    return false;
  }
  function hoistRequired(out, properties) {
    for (const [name, sub] of Object.entries(properties)) {
      if (!isObject(sub) || typeof sub.required !== "boolean") continue;
      if (sub.required) out.required = [...Array.isArray(out.required) ? out.required : [], name];
      delete sub.required;
    }
  }
  var TYPE_NAMES = ["null", "boolean", "object", "array", "string", "number", "integer"];
  function checkCompiledShapes(out, pointer) {
    const refuse = (keyword, what, at3 = pointerChild(pointer, keyword)) => {
      throw new ConstraintError("invalid-input", `${keyword} must be ${what}`, { pointer: at3, keyword });
    };
    const isSchema = (value) => typeof value === "boolean" || isObject(value);
    for (const keyword of ["$dynamicRef", "$recursiveRef"]) {
      if (hasOwn(out, keyword))
        throw new ConstraintError("unsupported-keyword", `${keyword} is not supported; use $ref`, {
          pointer: pointerChild(pointer, keyword),
          keyword
        });
    }
    if (hasOwn(out, "type")) {
      const types = Array.isArray(out.type) ? out.type : [out.type];
      if (types.length === 0 || types.some((type) => typeof type !== "string" || !TYPE_NAMES.includes(type)))
        refuse("type", `one of ${TYPE_NAMES.join(", ")}, or a list of them`);
    }
    if (hasOwn(out, "enum") && !Array.isArray(out.enum)) refuse("enum", "an array");
    for (const keyword of ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]) {
      if (hasOwn(out, keyword) && !(typeof out[keyword] === "number" && Number.isFinite(out[keyword])))
        refuse(keyword, "a number");
    }
    for (const keyword of ["minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"]) {
      const value = out[keyword];
      if (hasOwn(out, keyword) && !(typeof value === "number" && Number.isInteger(value) && value >= 0))
        refuse(keyword, "a non-negative integer");
    }
    if (hasOwn(out, "pattern")) {
      if (typeof out.pattern !== "string") refuse("pattern", "a string");
      if (!validPattern(out.pattern)) {
        throw new ConstraintError("invalid-regex", `pattern '${String(out.pattern)}' is not a valid regex`, {
          pointer: pointerChild(pointer, "pattern"),
          keyword: "pattern"
        });
      }
    }
    if (hasOwn(out, "required") && !(Array.isArray(out.required) && out.required.every((name) => typeof name === "string")))
      refuse("required", "an array of strings");
    if (hasOwn(out, "$ref") && typeof out.$ref !== "string") refuse("$ref", "a string");
    for (const keyword of ["items", "additionalProperties"])
      if (hasOwn(out, keyword) && !isSchema(out[keyword])) refuse(keyword, "a schema (an object or a boolean)");
    for (const keyword of ["properties", "$defs", "definitions"]) {
      if (!hasOwn(out, keyword)) continue;
      if (!isObject(out[keyword])) refuse(keyword, "an object");
      for (const [name, sub] of Object.entries(out[keyword]))
        if (!isSchema(sub)) refuse(keyword, "an object of schemas", pointerChild(pointerChild(pointer, keyword), name));
    }
    for (const keyword of ["allOf", "anyOf", "oneOf", "prefixItems"]) {
      if (!hasOwn(out, keyword)) continue;
      const list = out[keyword];
      if (!Array.isArray(list) || list.length === 0 && keyword !== "prefixItems" || !list.every(isSchema))
        refuse(keyword, "a non-empty array of schemas");
    }
  }
  function resolves(root, ref2, anchors) {
    let fragment = ref2;
    const rootId = isObject(root) && typeof root.$id === "string" ? root.$id.replace(/#$/, "") : void 0;
    if (rootId && fragment.startsWith(rootId)) fragment = fragment.slice(rootId.length);
    if (!fragment.startsWith("#")) return false;
    let body;
    try {
      body = decodeURIComponent(fragment.slice(1));
    } catch {
      return false;
    }
    if (body === "") return true;
    if (!body.startsWith("/")) return anchors.has(body);
    let target = root;
    for (const token of body.split("/").slice(1).map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"))) {
      if ((isObject(target) || Array.isArray(target)) && hasOwn(target, token)) target = target[token];
      else return false;
    }
    return typeof target === "boolean" || isObject(target);
  }

  // src/automaton/automaton.ts
  var MAX_STACKS_PER_STATE = 4096;
  var MAX_STATES = 2e5;
  var AutomatonLimitError = class extends Error {
    constructor(message) {
      super(message);
      __publicField(this, "code", "grammar-too-ambiguous");
      this.name = "AutomatonLimitError";
    }
  };
  var CHAR = 0;
  var REF = 1;
  var END = 2;
  var DEAD = -1;
  var UNKNOWN = -2;
  var SAME_AS = -3;
  function sameStacks(a, b) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }
  var Automaton = class {
    constructor(grammar) {
      // ---- the flattened grammar: positions 0..n-1, each an element; an alternative ends at END ----
      __publicField(this, "kind", []);
      /** CHAR: index into charSets; REF: the rule index. */
      __publicField(this, "arg", []);
      __publicField(this, "charSets", []);
      /** Per rule: the start position of each alternative. */
      __publicField(this, "ruleAlts", []);
      // ---- character classes --------------------------------------------------------------------
      /** Sorted class boundaries: class i holds [bounds[i], bounds[i+1]-1]. */
      __publicField(this, "bounds");
      /** Per CHAR element: which classes it matches (Uint8Array over classes). */
      __publicField(this, "charMatches", []);
      // ---- interned stacks: id 0 is the empty stack ----
      __publicField(this, "stackTop", [-1]);
      __publicField(this, "stackRest", [-1]);
      __publicField(this, "stackIds", /* @__PURE__ */ new Map());
      /** Canonical expansions of a stack (tops are CHAR elements or the empty stack). */
      __publicField(this, "expansions", /* @__PURE__ */ new Map());
      // ---- interned states: a sorted set of canonical stacks ----
      __publicField(this, "stateStacks", []);
      /** States by a hash of their stacks (a bucket of ids: hashes can collide). */
      __publicField(this, "stateIds", /* @__PURE__ */ new Map());
      /** Transitions, `classes` entries per state (one buffer, so a new state allocates no array of its own). */
      __publicField(this, "transitions", new Int32Array(0));
      __publicField(this, "accepting", []);
      /** The state before any character. */
      __publicField(this, "initial");
      __publicField(this, "nextCounts", /* @__PURE__ */ new Map());
      __publicField(this, "charSetIds", /* @__PURE__ */ new Map());
      __publicField(this, "rowScratch");
      // ---- counted repetitions cut to a depth (equivalentState) ------------------------------------
      /** Per repetition expanded into nested optionals (x{0,n}): its rules, the innermost (one unit left) first. */
      __publicField(this, "countedChains", []);
      __publicField(this, "cut");
      // ---- shortest completions --------------------------------------------------------------------
      __publicField(this, "lengths");
      /** completeStack's answers per stack: stacks are shared by many states (what follows a string, an object). */
      __publicField(this, "stackCompletions", /* @__PURE__ */ new Map());
      const ruleIndex = /* @__PURE__ */ new Map();
      for (const name of grammar.rules.keys()) {
        ruleIndex.set(name, this.ruleAlts.length);
        this.ruleAlts.push([]);
      }
      const root = ruleIndex.get(grammar.root);
      if (root === void 0) throw new Error(`the grammar has no rule '${grammar.root}'`);
      for (const [name, body] of grammar.rules) this.defineRule(ruleIndex.get(name), body, ruleIndex);
      this.bounds = this.classBounds();
      for (const set of this.charSets) this.charMatches.push(this.matchTable(set));
      const start2 = this.expandFrom(root, 0);
      this.initial = this.internState(start2);
    }
    /** Number of character classes. */
    get classes() {
      return this.bounds.length;
    }
    get states() {
      return this.stateStacks.length;
    }
    /** The class of a code point. */
    classOf(codePoint) {
      const b = this.bounds;
      let lo = 0;
      let hi = b.length - 1;
      while (lo < hi) {
        const mid = lo + hi + 1 >> 1;
        if (b[mid] <= codePoint) lo = mid;
        else hi = mid - 1;
      }
      return lo;
    }
    isAccepting(state) {
      return this.accepting[state];
    }
    /** Accepting, and no character can follow: every way through the grammar has ended. */
    isFinal(state) {
      return this.stateStacks[state].every((stack) => stack === 0);
    }
    /**
     * A state that allows the same strings of up to `depth` - 1 characters as this one (so the same
     * tokens, where no token spells more): this one with every counted repetition that has more than
     * `depth` units left (each at least a character) cut to `depth` left. The characters of a long
     * bounded string are then one state to the token masker, not one each. Memoised for one depth.
     */
    equivalentState(state, depth) {
      if (this.cut?.depth !== depth)
        this.cut = { depth, position: this.cutPositions(depth), stacks: /* @__PURE__ */ new Map(), states: /* @__PURE__ */ new Map() };
      const cut = this.cut;
      let equivalent = cut.states.get(state);
      if (equivalent === void 0) {
        const stacks = this.stateStacks[state];
        const cutStacks = stacks.map((stack) => this.cutStack(stack, cut));
        equivalent = cutStacks.every((stack, i) => stack === stacks[i]) ? state : this.internState(cutStacks);
        cut.states.set(state, equivalent);
      }
      return equivalent;
    }
    /** The state after one character of the given class, or DEAD. */
    step(state, cls) {
      const at3 = state * this.bounds.length + cls;
      const cached = this.transitions[at3];
      if (cached >= DEAD) return cached;
      if (cached !== UNKNOWN) {
        const same = this.step(state, SAME_AS - cached);
        this.transitions[at3] = same;
        return same;
      }
      const next = [];
      for (const stack of this.stateStacks[state]) {
        if (stack === 0) continue;
        const top = this.stackTop[stack];
        if (!this.charMatches[this.arg[top]][cls]) continue;
        const rest = this.stackRest[stack];
        const after = this.kind[top + 1] === END ? rest : this.pushStack(top + 1, rest);
        for (const s of this.expand(after)) next.push(s);
      }
      const result = next.length === 0 ? DEAD : this.internState(next);
      this.transitions[at3] = result;
      return result;
    }
    /** The state after a string, or DEAD. */
    stepText(state, text3) {
      for (const cp of codePointsOf(text3)) {
        if (state === DEAD) return DEAD;
        state = this.step(state, this.classOf(cp));
      }
      return state;
    }
    /**
     * Whether some completion of a partial UTF-8 sequence could match a character the state expects,
     * exactly as llama.cpp's llama_grammar_match_partial_char decides it (a negated class refuses a
     * partial sequence whose range touches an excluded character).
     */
    acceptsPartial(state, value, remain) {
      if (remain < 0 || remain === 1 && value < 2) return false;
      let low = value * 2 ** (remain * 6);
      const high = low + 2 ** (remain * 6) - 1;
      if (low === 0) {
        if (remain === 2) low = 1 << 11;
        else if (remain === 3) low = 1 << 16;
      }
      for (const stack of this.stateStacks[state]) {
        if (stack === 0) continue;
        const set = this.charSets[this.arg[this.stackTop[stack]]];
        let hit = false;
        for (const [lo, hi] of set.ranges) {
          if (lo <= high && low <= hi) {
            hit = true;
            break;
          }
        }
        if (hit !== set.negated) return true;
      }
      return false;
    }
    /**
     * How many code points some parse of the state allows next (each distinct character element on
     * a stack's top counted whole; overlaps counted twice): few means few tokens can follow, and a
     * token mask of the state is cheap to compute. Memoised per state.
     */
    nextCodePoints(state) {
      if (state === DEAD) return 0;
      let count = this.nextCounts.get(state);
      if (count === void 0) {
        count = 0;
        const seen = /* @__PURE__ */ new Set();
        for (const stack of this.stateStacks[state]) {
          if (stack === 0) continue;
          const set = this.arg[this.stackTop[stack]];
          if (seen.has(set)) continue;
          seen.add(set);
          const { ranges, negated } = this.charSets[set];
          let size = 0;
          for (const [lo, hi] of ranges) size += hi - lo + 1;
          count += negated ? MAX_CODE_POINT + 1 - size : size;
        }
        this.nextCounts.set(state, count);
      }
      return count;
    }
    /** The characters expected next (each stack's top element), for shortest completions. */
    stacksOf(state) {
      return this.stateStacks[state];
    }
    /**
     * A shortest string (in code points) that completes the grammar from this state, or null at a
     * dead state. Characters are the lowest code point of each class an element allows (ASCII where
     * the grammar allows it).
     */
    shortestCompletion(state) {
      if (state === DEAD) return null;
      const lengths = this.minLengths();
      let best = null;
      for (const stack of this.stateStacks[state]) {
        const completion = this.completeStack(stack, lengths);
        if (completion !== null && (best === null || completion.length < best.length)) best = completion;
      }
      return best && best.text;
    }
    // ---- building ------------------------------------------------------------------------------
    addPosition(kind, arg) {
      this.kind.push(kind);
      this.arg.push(arg);
    }
    newRule() {
      this.ruleAlts.push([]);
      return this.ruleAlts.length - 1;
    }
    /** Emits a rule's alternatives; nested alternations and repetitions become rules of their own (as llama.cpp's parser does). */
    defineRule(rule, body, names) {
      const options = body.kind === "alt" ? body.options : [body];
      const sequences = options.map((option) => this.elements(option, names));
      for (const elements of sequences) {
        this.ruleAlts[rule].push(this.kind.length);
        for (const [kind, arg] of elements) this.addPosition(kind, arg);
        this.addPosition(END, -1);
      }
    }
    elements(expr, names) {
      switch (expr.kind) {
        case "literal":
          return codePointsOf(expr.text).map((cp) => [CHAR, this.charSet([[cp, cp]], false)]);
        case "class":
          return [[CHAR, this.charSet(expr.ranges, expr.negated)]];
        case "ref": {
          const target = names.get(expr.name);
          if (target === void 0) throw new Error(`undefined rule '${expr.name}'`);
          return [[REF, target]];
        }
        case "seq":
          return expr.items.flatMap((item) => this.elements(item, names));
        case "alt": {
          const rule = this.newRule();
          this.defineRule(rule, expr, names);
          return [[REF, rule]];
        }
        case "repeat":
          return this.repetition(expr.body, expr.min, expr.max, names);
      }
    }
    /** x{min,max}: min copies, then `R ::= x R | ε` (unbounded) or nested optionals (llama.cpp's expansion). */
    repetition(body, min, max, names) {
      const unit = this.single(body, names);
      const out = [];
      for (let i = 0; i < min; i++) out.push(unit);
      if (max === null) {
        const rule = this.newRule();
        this.ruleAlts[rule].push(this.kind.length);
        this.addPosition(unit[0], unit[1]);
        this.addPosition(REF, rule);
        this.addPosition(END, -1);
        this.ruleAlts[rule].push(this.kind.length);
        this.addPosition(END, -1);
        out.push([REF, rule]);
      } else if (max > min) {
        let inner = -1;
        const chain = [];
        this.countedChains.push(chain);
        for (let k = 0; k < max - min; k++) {
          const rule = this.newRule();
          chain.push(rule);
          this.ruleAlts[rule].push(this.kind.length);
          this.addPosition(unit[0], unit[1]);
          if (inner >= 0) this.addPosition(REF, inner);
          this.addPosition(END, -1);
          this.ruleAlts[rule].push(this.kind.length);
          this.addPosition(END, -1);
          inner = rule;
        }
        out.push([REF, inner]);
      }
      return out;
    }
    /** One element standing for an expression: a character element, a rule reference, or a new rule. */
    single(expr, names) {
      const elements = this.elements(expr, names);
      if (elements.length === 1) return elements[0];
      const rule = this.newRule();
      this.ruleAlts[rule].push(this.kind.length);
      for (const [kind, arg] of elements) this.addPosition(kind, arg);
      this.addPosition(END, -1);
      return [REF, rule];
    }
    charSet(ranges, negated) {
      const key = `${negated ? "^" : ""}${ranges.map(([lo, hi]) => `${lo}-${hi}`).join(",")}`;
      let id = this.charSetIds.get(key);
      if (id === void 0) {
        id = this.charSets.length;
        this.charSets.push({ ranges, negated });
        this.charSetIds.set(key, id);
      }
      return id;
    }
    classBounds() {
      const cuts = /* @__PURE__ */ new Set([0]);
      for (const { ranges } of this.charSets) {
        for (const [lo, hi] of ranges) {
          cuts.add(lo);
          if (hi < MAX_CODE_POINT) cuts.add(hi + 1);
        }
      }
      return Int32Array.from([...cuts].sort((a, b) => a - b));
    }
    matchTable(set) {
      const table = new Uint8Array(this.bounds.length);
      for (let c = 0; c < this.bounds.length; c++)
        table[c] = rangesContain(set.ranges, this.bounds[c]) !== set.negated ? 1 : 0;
      return table;
    }
    // ---- stacks and states ---------------------------------------------------------------------
    pushStack(top, rest) {
      const key = rest * this.kind.length + top;
      let id = this.stackIds.get(key);
      if (id === void 0) {
        id = this.stackTop.length;
        this.stackTop.push(top);
        this.stackRest.push(rest);
        this.stackIds.set(key, id);
      }
      return id;
    }
    /** The stacks after entering rule `rule` with `rest` below it. */
    expandFrom(rule, rest) {
      const out = /* @__PURE__ */ new Set();
      for (const alt2 of this.ruleAlts[rule]) {
        const stack = this.kind[alt2] === END ? rest : this.pushStack(alt2, rest);
        for (const s of this.expand(stack)) out.add(s);
      }
      return [...out];
    }
    /**
     * llama_grammar_advance_stack, memoised: the canonical stacks (a character element on top, or
     * empty) a stack stands for. A cycle of empty alternatives adds nothing and is cut.
     */
    expand(stack) {
      const cached = this.expansions.get(stack);
      if (cached) return cached;
      const out = /* @__PURE__ */ new Set();
      const visiting = /* @__PURE__ */ new Set();
      const walk = (s) => {
        if (s === 0 || this.kind[this.stackTop[s]] === CHAR) {
          out.add(s);
          return;
        }
        const done = this.expansions.get(s);
        if (done) {
          for (const d of done) out.add(d);
          return;
        }
        if (visiting.has(s)) return;
        visiting.add(s);
        const top = this.stackTop[s];
        const rest = this.kind[top + 1] === END ? this.stackRest[s] : this.pushStack(top + 1, this.stackRest[s]);
        for (const alt2 of this.ruleAlts[this.arg[top]]) walk(this.kind[alt2] === END ? rest : this.pushStack(alt2, rest));
        visiting.delete(s);
        if (out.size > MAX_STACKS_PER_STATE)
          throw new AutomatonLimitError(
            `the grammar is too ambiguous for constrained decoding: more than ${MAX_STACKS_PER_STATE} parses at one point`
          );
      };
      walk(stack);
      const result = [...out];
      this.expansions.set(stack, result);
      return result;
    }
    /** The state of a set of stacks (sorted and deduplicated in place). */
    internState(stacks) {
      stacks.sort((a, b) => a - b);
      let n = 0;
      for (let i = 0; i < stacks.length; i++) if (i === 0 || stacks[i] !== stacks[n - 1]) stacks[n++] = stacks[i];
      stacks.length = n;
      if (n > MAX_STACKS_PER_STATE)
        throw new AutomatonLimitError(
          `the grammar is too ambiguous for constrained decoding: more than ${MAX_STACKS_PER_STATE} parses at one point`
        );
      let hash = n;
      for (const stack of stacks) hash = Math.imul(hash ^ stack, 2654435761) ^ hash >>> 15;
      let bucket = this.stateIds.get(hash);
      if (bucket) {
        for (const id2 of bucket) if (sameStacks(this.stateStacks[id2], stacks)) return id2;
      } else this.stateIds.set(hash, bucket = []);
      if (this.stateStacks.length >= MAX_STATES)
        throw new AutomatonLimitError(`the grammar needs more than ${MAX_STATES} parse states`);
      const id = this.stateStacks.length;
      this.stateStacks.push(stacks);
      bucket.push(id);
      this.accepting.push(stacks[0] === 0);
      const classes = this.bounds.length;
      if (this.transitions.length < (id + 1) * classes) {
        const grown = new Int32Array(Math.max(64 * classes, this.transitions.length * 2));
        grown.set(this.transitions);
        this.transitions = grown;
      }
      this.fillRow(stacks, id * classes);
      return id;
    }
    /**
     * A state's transition row before any step: UNKNOWN for the lowest class of each group of classes
     * that every stack top treats alike, SAME_AS - c for the others (c their group's lowest), so a
     * group's next state is computed once (a string's character classes are dozens, one next state).
     */
    fillRow(stacks, offset) {
      const classes = this.bounds.length;
      const row = this.transitions.subarray(offset, offset + classes).fill(UNKNOWN);
      const { group, renumber, lowest, setSeen } = this.rowScratch ??= {
        group: new Int32Array(classes),
        renumber: new Int32Array(2 * classes),
        lowest: new Int32Array(classes),
        setSeen: new Int32Array(this.charSets.length),
        epoch: 0
      };
      const epoch = ++this.rowScratch.epoch;
      group.fill(0);
      let groups = 1;
      for (const stack of stacks) {
        if (stack === 0) continue;
        const set = this.arg[this.stackTop[stack]];
        if (setSeen[set] === epoch) continue;
        setSeen[set] = epoch;
        const matches = this.charMatches[set];
        renumber.fill(-1, 0, 2 * groups);
        let next = 0;
        for (let c = 0; c < classes; c++) {
          const k = group[c] * 2 + matches[c];
          if (renumber[k] < 0) renumber[k] = next++;
          group[c] = renumber[k];
        }
        groups = next;
        if (groups === classes) return;
      }
      lowest.fill(-1, 0, groups);
      for (let c = 0; c < classes; c++) {
        if (lowest[group[c]] < 0) lowest[group[c]] = c;
        else row[c] = SAME_AS - lowest[group[c]];
      }
    }
    /**
     * Per position, the position it stands for when counted repetitions are cut to `depth` units
     * left: in a run of one element written n times in a row (x{n} and x{m,n} write their m copies
     * so, a literal "aaaa" too), a position with more than `depth` left goes to the one with
     * `depth` left; in nested optionals (x{0,n}), a rule with more than `depth` units left goes to
     * the one with `depth`. Only for units of at least one character, so no string of fewer than
     * `depth` characters reaches the end of either.
     */
    cutPositions(depth) {
      const n = this.kind.length;
      const position = Int32Array.from({ length: n }, (_, p) => p);
      const minRule = this.minLengths().rule;
      const consumes = (p) => this.kind[p] === CHAR || this.kind[p] === REF && minRule[this.arg[p]] > 0;
      for (let p = 0; p < n; ) {
        if (!consumes(p)) {
          p++;
          continue;
        }
        let end = p + 1;
        while (end < n && this.kind[end] === this.kind[p] && this.arg[end] === this.arg[p]) end++;
        for (let i = p; i < end - depth; i++) position[i] = end - depth;
        p = end;
      }
      for (const chain of this.countedChains) {
        if (chain.length <= depth || !consumes(this.ruleAlts[chain[0]][0])) continue;
        const target = this.ruleAlts[chain[depth - 1]][0];
        for (let j = depth; j < chain.length; j++) {
          const start2 = this.ruleAlts[chain[j]][0];
          position[start2] = target;
          position[start2 + 1] = target + 1;
        }
      }
      return position;
    }
    /** A stack with each position cut. */
    cutStack(stack, cut) {
      return this.overStack(stack, cut.stacks, 0, (s, below) => {
        const top = cut.position[this.stackTop[s]];
        return top === this.stackTop[s] && below === this.stackRest[s] ? s : this.pushStack(top, below);
      });
    }
    /**
     * A value of a stack made from its top and its rest's value, memoised per stack in `memo` and
     * filled from the deepest stack not yet known up (a loop: stacks run thousands deep).
     */
    overStack(stack, memo, empty, combine) {
      const pending = [];
      let s = stack;
      for (; s !== 0 && !memo.has(s); s = this.stackRest[s]) pending.push(s);
      let below = s === 0 ? empty : memo.get(s);
      for (let i = pending.length - 1; i >= 0; i--) {
        below = combine(pending[i], below);
        memo.set(pending[i], below);
      }
      return below;
    }
    /** Shortest string length per rule (code points), and which alternative gives it (fixpoint). */
    minLengths() {
      if (this.lengths) return this.lengths;
      const rule = this.ruleAlts.map(() => Infinity);
      const choice = this.ruleAlts.map(() => -1);
      let changed = true;
      while (changed) {
        changed = false;
        this.ruleAlts.forEach((alts, r) => {
          alts.forEach((start2, i) => {
            const length = this.restLength(start2, rule);
            if (length < rule[r]) {
              rule[r] = length;
              choice[r] = i;
              changed = true;
            }
          });
        });
      }
      this.lengths = { rule, choice };
      return this.lengths;
    }
    restLength(position, rule) {
      let total = 0;
      for (let p = position; this.kind[p] !== END; p++) total += this.kind[p] === CHAR ? 1 : rule[this.arg[p]];
      return total;
    }
    lowestChar(set) {
      const { ranges, negated } = this.charSets[set];
      if (!negated) return ranges[0][0] === 0 && ranges[0][1] > 0 ? 1 : ranges[0][0];
      for (const start2 of [32, 1]) {
        let c = start2;
        for (const [lo, hi] of ranges) if (c >= lo && c <= hi) c = hi + 1;
        if (c <= MAX_CODE_POINT && !rangesContain(ranges, c) && !(c >= 55296 && c <= 57343)) return c;
      }
      return 32;
    }
    /** The completion of a stack: its top's, then its rest's. */
    completeStack(stack, lengths) {
      return this.overStack(stack, this.stackCompletions, { text: "", length: 0 }, (s, below) => {
        if (below === null) return null;
        const piece = this.completeFrom(this.stackTop[s], lengths, 0);
        return piece === null ? null : { text: piece + below.text, length: codePointsOf(piece).length + below.length };
      });
    }
    completeFrom(position, lengths, depth) {
      if (depth > 1e4) return null;
      let text3 = "";
      for (let p = position; this.kind[p] !== END; p++) {
        if (this.kind[p] === CHAR) text3 += String.fromCodePoint(this.lowestChar(this.arg[p]));
        else {
          const r = this.arg[p];
          if (lengths.choice[r] < 0) return null;
          const piece = this.completeFrom(this.ruleAlts[r][lengths.choice[r]], lengths, depth + 1);
          if (piece === null) return null;
          text3 += piece;
        }
      }
      return text3;
    }
  };

  // src/grammar/regex-parse.ts
  var REGEX_MAX_NESTING = 64;
  function scanRegex(pattern, maxNesting = REGEX_MAX_NESTING) {
    let depth = 0;
    let captures = 0;
    let named = false;
    for (let i = 0; i < pattern.length; i++) {
      const ch = pattern[i];
      if (ch === "\\") i++;
      else if (ch === "[") {
        for (i++; i < pattern.length && pattern[i] !== "]"; i++) if (pattern[i] === "\\") i++;
      } else if (ch === "(") {
        if (++depth > maxNesting) {
          throw new ConstraintError("too-deep", `regex groups nest deeper than the limit of ${maxNesting}`, {
            position: i
          });
        }
        if (pattern[i + 1] !== "?") captures++;
        else if (pattern[i + 2] === "<" && pattern[i + 3] !== "=" && pattern[i + 3] !== "!") {
          captures++;
          named = true;
        }
      } else if (ch === ")") depth = Math.max(0, depth - 1);
    }
    return { captures, named };
  }
  function engineSyntax(pattern) {
    try {
      new RegExp(pattern, "u");
      return true;
    } catch (unicodeError) {
      try {
        new RegExp(pattern);
        return false;
      } catch {
        const message = String(unicodeError.message ?? unicodeError);
        const reason = /\/[a-z]*: ([^/]*)$/.exec(message)?.[1] ?? message.slice(0, 200);
        throw new ConstraintError("invalid-regex", `regex does not parse: ${reason}`);
      }
    }
  }
  var isDigit = (ch) => ch !== void 0 && ch >= "0" && ch <= "9";
  var isOctal = (ch) => ch !== void 0 && ch >= "0" && ch <= "7";
  var isHex = (ch) => ch !== void 0 && /^[0-9a-fA-F]$/.test(ch);
  var isAsciiLetter = (ch) => ch !== void 0 && /^[a-zA-Z]$/.test(ch);
  var CONTROL_ESCAPES = /* @__PURE__ */ new Map([
    ["f", 12],
    ["n", 10],
    ["r", 13],
    ["t", 9],
    ["v", 11]
  ]);
  var CLASS_ESCAPES = /* @__PURE__ */ new Set(["d", "D", "w", "W", "s", "S"]);
  function braceQuantifier(pattern, at3) {
    const sticky = /\{(\d+)(,(\d*))?\}/y;
    sticky.lastIndex = at3;
    const match = sticky.exec(pattern);
    if (!match) return null;
    const min = Number(match[1]);
    const max = match[2] === void 0 ? min : match[3] === "" ? null : Number(match[3]);
    return { min, max, end: at3 + match[0].length };
  }
  var Parser = class {
    constructor(pattern, unicode, shape2) {
      __publicField(this, "pattern", pattern);
      __publicField(this, "unicode", unicode);
      __publicField(this, "shape", shape2);
      __publicField(this, "i", 0);
    }
    parse() {
      const body = this.disjunction();
      if (this.i < this.pattern.length) this.internal(`unexpected '${this.pattern[this.i]}'`);
      return body;
    }
    /** The engine accepted the pattern, so this is a parser bug; still a ConstraintError, with a position. */
    internal(what) {
      throw new ConstraintError("invalid-regex", `regex does not parse: ${what}`, { position: this.i });
    }
    unsupported(construct, position) {
      throw new ConstraintError("unsupported-regex", `${construct} cannot be expressed in a grammar`, {
        position,
        keyword: construct
      });
    }
    disjunction() {
      const options = [this.sequence()];
      while (this.pattern[this.i] === "|") {
        this.i++;
        options.push(this.sequence());
      }
      return options.length === 1 ? options[0] : { type: "disjunction", options };
    }
    sequence() {
      let items = [];
      while (this.i < this.pattern.length && this.pattern[this.i] !== "|" && this.pattern[this.i] !== ")")
        items.push(this.term());
      if (!this.unicode) items = joinSurrogates(items);
      return items.length === 1 ? items[0] : { type: "sequence", items };
    }
    term() {
      const start2 = this.i;
      const ch = this.pattern[this.i];
      if (ch === "^" || ch === "$") {
        this.i++;
        return { type: "anchor", kind: ch, position: start2 };
      }
      if (ch === "\\" && (this.pattern[this.i + 1] === "b" || this.pattern[this.i + 1] === "B")) {
        this.unsupported(this.pattern[this.i + 1] === "b" ? "word boundary \\b" : "non-word boundary \\B", start2);
      }
      return this.quantified(this.atom(), start2);
    }
    quantified(atom, start2) {
      const ch = this.pattern[this.i];
      let min;
      let max;
      if (ch === "*" || ch === "+" || ch === "?") {
        this.i++;
        [min, max] = ch === "*" ? [0, null] : ch === "+" ? [1, null] : [0, 1];
      } else if (ch === "{" && braceQuantifier(this.pattern, this.i)) {
        const q2 = braceQuantifier(this.pattern, this.i);
        this.i = q2.end;
        [min, max] = [q2.min, q2.max];
      } else return atom;
      if (this.pattern[this.i] === "?") this.i++;
      if (!Number.isSafeInteger(min) || max !== null && !Number.isSafeInteger(max)) {
        throw new ConstraintError("too-large", "repetition bound is too large", { position: start2 });
      }
      return { type: "repeat", body: atom, min, max };
    }
    atom() {
      const start2 = this.i;
      const ch = this.pattern[this.i];
      switch (ch) {
        case ".":
          this.i++;
          return { type: "dot", position: start2 };
        case "(":
          return this.group();
        case "[":
          return this.characterClass();
        case "\\":
          return this.atomEscape();
        default:
          return { type: "char", codePoint: this.sourceCharacter(), position: start2 };
      }
    }
    /**
     * The pattern's next character: a code point with the `u` flag; without it one UTF-16 unit, as
     * the engine reads it (`😀+` repeats only the second half; sequence() joins the halves again).
     */
    sourceCharacter() {
      const codePoint = this.unicode ? this.pattern.codePointAt(this.i) : this.pattern.charCodeAt(this.i);
      this.i += codePoint > 65535 ? 2 : 1;
      return codePoint;
    }
    group() {
      const start2 = this.i;
      const rest = this.pattern.slice(this.i, this.i + 4);
      let lookaround;
      if (rest.startsWith("(?=")) lookaround = "lookahead";
      else if (rest.startsWith("(?!")) lookaround = "negative lookahead";
      else if (rest.startsWith("(?<=")) lookaround = "lookbehind";
      else if (rest.startsWith("(?<!")) lookaround = "negative lookbehind";
      if (lookaround) this.unsupported(lookaround, start2);
      if (rest.startsWith("(?:")) this.i += 3;
      else if (rest.startsWith("(?<")) {
        const close = this.pattern.indexOf(">", this.i);
        if (close < 0) this.internal("unterminated group name");
        this.i = close + 1;
      } else if (rest.startsWith("(?")) this.unsupported(`group modifier '${rest.slice(0, 3)}'`, start2);
      else this.i += 1;
      const body = this.disjunction();
      if (this.pattern[this.i] !== ")") this.internal("missing ')'");
      this.i++;
      return body;
    }
    // -- escapes -----------------------------------------------------------------------------------
    atomEscape() {
      const start2 = this.i;
      const next = this.pattern[this.i + 1];
      if (next === void 0) this.internal("\\ at the end");
      if (next >= "1" && next <= "9") {
        let end = this.i + 1;
        while (isDigit(this.pattern[end])) end++;
        if (this.unicode || Number(this.pattern.slice(this.i + 1, end)) <= this.shape.captures)
          this.unsupported("backreference", start2);
        this.i++;
        return { type: "char", codePoint: this.legacyEscape(), position: start2 };
      }
      if (next === "k" && (this.unicode || this.shape.named)) this.unsupported("backreference", start2);
      if (this.propertyEscape(next)) this.unsupported("Unicode property escape", start2);
      if (next === "c" && !isAsciiLetter(this.pattern[this.i + 2])) {
        this.i++;
        return { type: "char", codePoint: 92, position: start2 };
      }
      if (CLASS_ESCAPES.has(next)) {
        this.i += 2;
        return { type: "escape", name: next, position: start2 };
      }
      this.i++;
      return { type: "char", codePoint: this.characterEscape(false), position: start2 };
    }
    /**
     * `\p{…}`: a property escape in Unicode mode. Annex B reads `\p{L}` as the text "p{L}", which is
     * surely not what was meant, so that is rejected as well rather than matched silently.
     */
    propertyEscape(next) {
      return (next === "p" || next === "P") && (this.unicode || /^\{[A-Za-z_=]+\}/.test(this.pattern.slice(this.i + 2, this.i + 64)));
    }
    /**
     * The escape after a backslash (at this.i, already past the backslash) that stands for one
     * character: control, hex, Unicode, NUL, legacy octal or identity escapes.
     */
    characterEscape(inClass) {
      const ch = this.pattern[this.i];
      const control = CONTROL_ESCAPES.get(ch);
      if (control !== void 0) {
        this.i++;
        return control;
      }
      if (ch === "c") {
        const letter = this.pattern[this.i + 1];
        if (isAsciiLetter(letter) || inClass && !this.unicode && (isDigit(letter) || letter === "_")) {
          this.i += 2;
          return letter.charCodeAt(0) % 32;
        }
        return 92;
      }
      if (ch === "x" && isHex(this.pattern[this.i + 1]) && isHex(this.pattern[this.i + 2])) {
        this.i += 3;
        return parseInt(this.pattern.slice(this.i - 2, this.i), 16);
      }
      if (ch === "u") {
        const unicode = this.unicodeEscape();
        if (unicode !== null) return unicode;
      }
      if (ch === "0" && !isDigit(this.pattern[this.i + 1])) {
        this.i++;
        return 0;
      }
      if (isDigit(ch)) return this.legacyEscape();
      return this.sourceCharacter();
    }
    /** `\uHHHH` (a surrogate pair of them is one code point) or, in Unicode mode, `\u{H…}`; null if neither. */
    unicodeEscape() {
      const p = this.pattern;
      const at3 = this.i;
      if (this.unicode && p[at3 + 1] === "{") {
        const close = p.indexOf("}", at3);
        this.i = close + 1;
        return parseInt(p.slice(at3 + 2, close), 16);
      }
      const hex4 = (from) => /^[0-9a-fA-F]{4}$/.test(p.slice(from, from + 4)) ? parseInt(p.slice(from, from + 4), 16) : null;
      const lead = hex4(at3 + 1);
      if (lead === null) return null;
      this.i = at3 + 5;
      if (this.unicode && lead >= 55296 && lead <= 56319 && p[this.i] === "\\" && p[this.i + 1] === "u") {
        const trail = hex4(this.i + 2);
        if (trail !== null && trail >= 56320 && trail <= 57343) {
          this.i += 6;
          return 65536 + (lead - 55296 << 10) + (trail - 56320);
        }
      }
      return lead;
    }
    /** Annex B's legacy octal escape (up to \377), or \8 and \9 as themselves; this.i at the first digit. */
    legacyEscape() {
      const p = this.pattern;
      if (!isOctal(p[this.i])) return p.charCodeAt(this.i++);
      let value = 0;
      const maxLength = p[this.i] <= "3" ? 3 : 2;
      for (let n = 0; n < maxLength && isOctal(p[this.i]); n++) value = value * 8 + Number(p[this.i++]);
      return value;
    }
    // -- classes -----------------------------------------------------------------------------------
    characterClass() {
      const start2 = this.i;
      this.i++;
      const negated = this.pattern[this.i] === "^";
      if (negated) this.i++;
      const items = [];
      while (this.pattern[this.i] !== "]") {
        if (this.i >= this.pattern.length) this.internal("unterminated class");
        const from = this.classAtom();
        if (this.pattern[this.i] === "-" && this.pattern[this.i + 1] !== "]" && this.i + 1 < this.pattern.length) {
          this.i++;
          const to = this.classAtom();
          if (from.type === "char" && to.type === "char")
            items.push({ type: "range", from: from.codePoint, to: to.codePoint });
          else items.push(from, { type: "char", codePoint: 45 }, to);
        } else items.push(from);
      }
      this.i++;
      return { type: "class", negated, items, position: start2 };
    }
    classAtom() {
      const start2 = this.i;
      if (this.pattern[this.i] !== "\\") return { type: "char", codePoint: this.sourceCharacter() };
      const next = this.pattern[this.i + 1];
      if (CLASS_ESCAPES.has(next)) {
        this.i += 2;
        return { type: "escape", name: next };
      }
      if (this.propertyEscape(next)) this.unsupported("Unicode property escape", start2);
      this.i++;
      if (next === "b") {
        this.i++;
        return { type: "char", codePoint: 8 };
      }
      if (next === "c") {
        const codePoint = this.characterEscape(true);
        return { type: "char", codePoint };
      }
      return { type: "char", codePoint: this.characterEscape(true) };
    }
  };
  var isLead = (node) => node?.type === "char" && node.codePoint >= 55296 && node.codePoint <= 56319;
  var isTrail = (node) => node?.type === "char" && node.codePoint >= 56320 && node.codePoint <= 57343;
  function joinSurrogates(items) {
    const out = [];
    for (let k = 0; k < items.length; k++) {
      const lead = items[k];
      const next = items[k + 1];
      const trail = next?.type === "repeat" && next.min <= 1 && (next.max === null || next.max >= 1) ? next.body : next;
      if (lead.type === "char" && isLead(lead) && isTrail(trail)) {
        const low = trail.codePoint;
        out.push({
          type: "char",
          codePoint: 65536 + (lead.codePoint - 55296 << 10) + (low - 56320),
          position: lead.position
        });
        k++;
      } else out.push(lead);
    }
    return out;
  }
  function parseRegex(pattern) {
    const shape2 = scanRegex(pattern);
    const unicode = engineSyntax(pattern);
    return { body: new Parser(pattern, unicode, shape2).parse(), unicode };
  }

  // src/grammar/regex-simplify.ts
  var keys = /* @__PURE__ */ new WeakMap();
  function exprKey(e) {
    let key = keys.get(e);
    if (key !== void 0) return key;
    switch (e.kind) {
      case "literal":
        key = JSON.stringify(e.text);
        break;
      case "class":
        key = `[${e.negated ? "^" : ""}${e.ranges.map(([lo, hi]) => `${lo}-${hi}`).join(",")}]`;
        break;
      case "ref":
        key = `<${e.name}>`;
        break;
      case "seq":
        key = `(${e.items.map(exprKey).join(" ")})`;
        break;
      case "alt":
        key = `(${e.options.map(exprKey).join("|")})`;
        break;
      case "repeat":
        key = `${exprKey(e.body)}{${e.min},${e.max ?? ""}}`;
        break;
    }
    keys.set(e, key);
    return key;
  }
  function singleChar(e) {
    if (e.kind === "class" && !e.negated) return e.ranges;
    if (e.kind === "literal") {
      const cps = [...e.text];
      if (cps.length === 1) {
        const cp = cps[0].codePointAt(0);
        return [[cp, cp]];
      }
    }
    return void 0;
  }
  function run2(e) {
    if (e.kind === "repeat" && singleChar(e.body)) return { unit: e.body, min: e.min, max: e.max };
    if (singleChar(e)) return { unit: e, min: 1, max: 1 };
    return void 0;
  }
  function simplifyRegex(e) {
    switch (e.kind) {
      case "seq": {
        const out = [];
        for (const item of e.items.map(simplifyRegex)) {
          const last = out.length ? run2(out[out.length - 1]) : void 0;
          const next = run2(item);
          if (last && next && exprKey(last.unit) === exprKey(next.unit)) {
            out[out.length - 1] = repeat(
              last.unit,
              last.min + next.min,
              last.max === null || next.max === null ? null : last.max + next.max
            );
          } else out.push(item);
        }
        return seqOf(out);
      }
      case "alt": {
        const seen = /* @__PURE__ */ new Set();
        const chars = [];
        const rest = [];
        let charsAt = -1;
        for (const option of e.options.map(simplifyRegex).flatMap((o) => o.kind === "alt" ? o.options : [o])) {
          const key = exprKey(option);
          if (seen.has(key)) continue;
          seen.add(key);
          const ranges = singleChar(option);
          if (ranges) {
            if (charsAt < 0) charsAt = rest.length;
            chars.push(...ranges.map(([lo, hi]) => [lo, hi]));
          } else rest.push(option);
        }
        if (charsAt >= 0) {
          const merged2 = normalizeRanges(chars);
          rest.splice(
            charsAt,
            0,
            chars.length === 1 ? e.options.map(simplifyRegex).find((o) => singleChar(o)) : charClass(merged2)
          );
        }
        return factorAlternatives(rest, () => void 0, void 0, 1);
      }
      case "repeat": {
        const body = simplifyRegex(e.body);
        const inner = body.kind === "repeat" && singleChar(body.body) ? body : void 0;
        if (inner) {
          const { min: p, max: q2 } = inner;
          const { min: r, max: s } = e;
          const gapless = (r >= 1 || p <= 1) && (q2 === null || Math.max(r, 1) * (q2 - p) >= p - 1);
          if (gapless) return repeat(inner.body, r * p, s === null || q2 === null ? null : s * q2);
        }
        return repeat(body, e.min, e.max);
      }
      default:
        return e;
    }
  }

  // src/grammar/regex.ts
  var SUPPORTED_FLAGS = /* @__PURE__ */ new Set(["i", "s", "u", "g", "d", "y"]);
  var DIGIT = [[48, 57]];
  var WORD = normalizeRanges([
    [48, 57],
    [65, 90],
    [95, 95],
    [97, 122]
  ]);
  var SPACE = normalizeRanges([
    [9, 13],
    [32, 32],
    [160, 160],
    [5760, 5760],
    [8192, 8202],
    [8232, 8233],
    [8239, 8239],
    [8287, 8287],
    [12288, 12288],
    [65279, 65279]
  ]);
  var LINE_TERMINATORS = [
    [10, 10],
    [13, 13],
    [8232, 8233]
  ];
  var restrict = (ranges) => intersectRanges(ranges, GENERATABLE);
  var complement = (ranges) => complementRanges(ranges, GENERATABLE);
  var casedCodePoints;
  function cased() {
    if (!casedCodePoints) {
      casedCodePoints = [];
      for (let cp = 1; cp <= 131071; cp++) {
        if (cp >= 55296 && cp <= 57343) continue;
        const ch = String.fromCodePoint(cp);
        if (ch.toLowerCase() !== ch || ch.toUpperCase() !== ch) casedCodePoints.push(cp);
      }
    }
    return casedCodePoints;
  }
  var casedText;
  var caseEquivalents = /* @__PURE__ */ new Map();
  function equivalents(codePoint) {
    let found = caseEquivalents.get(codePoint);
    if (!found) {
      casedText ??= cased().map((cp) => String.fromCodePoint(cp)).join("");
      const matcher = new RegExp(`\\u{${codePoint.toString(16)}}`, "giu");
      found = [...casedText.matchAll(matcher)].map((m) => m[0].codePointAt(0));
      caseEquivalents.set(codePoint, found);
    }
    return found;
  }
  function caseClose(ranges) {
    if (ranges.length === 0) return ranges;
    const list = cased();
    let inside = 0;
    for (const [lo, hi] of ranges) inside += firstAtLeast(list, hi + 1) - firstAtLeast(list, lo);
    const extra = [];
    if (inside <= list.length - inside) {
      for (const [lo, hi] of ranges) {
        for (let k = firstAtLeast(list, lo); k < list.length && list[k] <= hi; k++) {
          for (const cp of equivalents(list[k])) if (!rangesContain(ranges, cp)) extra.push([cp, cp]);
        }
      }
    } else {
      for (const [lo, hi] of complementRanges(ranges)) {
        for (let k = firstAtLeast(list, lo); k < list.length && list[k] <= hi; k++) {
          if (equivalents(list[k]).some((cp) => rangesContain(ranges, cp))) extra.push([list[k], list[k]]);
        }
      }
    }
    return extra.length ? normalizeRanges([...ranges, ...extra]) : ranges;
  }
  var foldedWord;
  function firstAtLeast(list, value) {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = lo + hi >> 1;
      if (list[mid] < value) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
  var BMP = [[0, 65535]];
  function unsupported(construct, position) {
    throw new ConstraintError("unsupported-regex", `${construct} cannot be expressed in a grammar`, {
      position,
      keyword: construct
    });
  }
  function escapeSet(name, ctx) {
    const set = escapeSetAnyWidth(name, ctx);
    return ctx.unitsOnly && (name === "D" || name === "W" || name === "S") ? intersectRanges(set, BMP) : set;
  }
  function escapeSetAnyWidth(name, ctx) {
    switch (name) {
      case "d":
        return DIGIT;
      case "D":
        return complement(DIGIT);
      case "w":
        return ctx.ignoreCase ? foldedWord ??= caseClose(WORD) : WORD;
      case "W":
        return complement(ctx.ignoreCase ? foldedWord ??= caseClose(WORD) : WORD);
      case "s":
        return restrict(SPACE);
      case "S":
        return complement(SPACE);
    }
  }
  function classSet(node, ctx) {
    const parts = [];
    for (const item of node.items) {
      if (item.type === "range") parts.push([item.from, item.to]);
      else if (item.type === "char") parts.push([item.codePoint, item.codePoint]);
      else for (const range of escapeSet(item.name, ctx)) parts.push(range);
    }
    const members = ctx.ignoreCase ? caseClose(normalizeRanges(parts)) : normalizeRanges(parts);
    if (!node.negated) return restrict(members);
    return ctx.unitsOnly ? intersectRanges(complement(members), BMP) : complement(members);
  }
  function setExpr(ranges) {
    if (ranges.length === 1 && ranges[0][0] === ranges[0][1]) return literal(String.fromCodePoint(ranges[0][0]));
    return charClass(ranges);
  }
  function nonEmptySet(ranges, position) {
    if (ranges.length === 0) {
      throw new ConstraintError(
        "unsatisfiable",
        "character set matches no character a model can produce (NUL and lone surrogates cannot be generated)",
        {
          position
        }
      );
    }
    return setExpr(ranges);
  }
  function convert(node, ctx) {
    switch (node.type) {
      case "sequence":
        return seqOf(node.items.map((item) => convert(item, ctx)));
      case "disjunction":
        return altOf(node.options.map((option) => convert(option, ctx)));
      case "char": {
        const set = [[node.codePoint, node.codePoint]];
        return nonEmptySet(restrict(ctx.ignoreCase ? caseClose(set) : set), node.position);
      }
      case "escape":
        return nonEmptySet(escapeSet(node.name, ctx), node.position);
      case "dot": {
        const set = ctx.dotAll ? GENERATABLE : complement(LINE_TERMINATORS);
        return setExpr(ctx.unitsOnly ? intersectRanges(set, BMP) : set);
      }
      case "class":
        return nonEmptySet(classSet(node, ctx), node.position);
      case "repeat":
        return repeat(convert(node.body, ctx), node.min, node.max);
      case "anchor":
        return unsupported(
          node.kind === "^" ? "anchor ^ away from the start" : "anchor $ away from the end",
          node.position
        );
    }
  }
  function stripAnchors(alternative) {
    const items = alternative.type === "sequence" ? [...alternative.items] : [alternative];
    let start2 = 0;
    let end = items.length;
    while (start2 < end && items[start2].type === "anchor" && items[start2].kind === "^") start2++;
    while (end > start2 && items[end - 1].type === "anchor" && items[end - 1].kind === "$") end--;
    return { items: items.slice(start2, end), start: start2 > 0, end: end < items.length };
  }
  var MAX_NON_EMPTY_ITEMS = 1e5;
  function nonEmpty(expr) {
    if (!isNullable(expr)) return expr;
    switch (expr.kind) {
      case "literal":
      case "class":
      case "ref":
        return null;
      case "alt": {
        const options = expr.options.map(nonEmpty).filter((o) => o !== null);
        return options.length ? altOf(options) : null;
      }
      case "seq": {
        const n = expr.items.length;
        if (n * (n + 1) / 2 > MAX_NON_EMPTY_ITEMS) {
          throw new ConstraintError(
            "too-large",
            `a bounded repetition of ${n} optional parts would expand to about ${Math.round(n * (n + 1) / 2)} items; use * or fewer parts`
          );
        }
        const options = [];
        expr.items.forEach((item, i) => {
          const head = nonEmpty(item);
          if (head) options.push(seqOf([head, ...expr.items.slice(i + 1)]));
        });
        return options.length ? altOf(options) : null;
      }
      case "repeat": {
        if (expr.max === 0) return null;
        const body = nonEmpty(expr.body);
        return body ? repeat(body, 1, expr.max) : null;
      }
    }
  }
  function withoutNullableRepetitions(expr) {
    switch (expr.kind) {
      case "seq":
        return seqOf(expr.items.map(withoutNullableRepetitions));
      case "alt":
        return altOf(expr.options.map(withoutNullableRepetitions));
      case "repeat": {
        const body = withoutNullableRepetitions(expr.body);
        if (!isNullable(body)) return repeat(body, expr.min, expr.max);
        if (expr.max === null && body.kind === "seq") {
          const solid2 = nonEmpty(altOf(body.items));
          return solid2 ? repeat(solid2, 0, null) : EMPTY;
        }
        const solid = nonEmpty(body);
        return solid && expr.max !== 0 ? repeat(solid, 0, expr.max) : EMPTY;
      }
      default:
        return expr;
    }
  }
  function validateRegexFlags(flags) {
    for (const flag of flags) {
      if (!SUPPORTED_FLAGS.has(flag)) {
        throw new ConstraintError(
          "unsupported-regex",
          flag === "m" ? "flag m (multiline anchors) cannot be expressed: a grammar matches the whole output" : `unsupported regex flag '${flag}'`,
          { keyword: `flag ${flag}` }
        );
      }
    }
  }
  function regexToExpr(pattern, flags, options) {
    if (typeof pattern !== "string") throw new ConstraintError("invalid-input", "a regex must be a string");
    if (typeof flags !== "string") throw new ConstraintError("invalid-input", "regex flags must be a string");
    validateRegexFlags(flags);
    const { body, unicode } = parseRegex(pattern);
    const ctx = { ignoreCase: flags.includes("i"), dotAll: flags.includes("s"), unitsOnly: !unicode };
    const anyChar = charClass(GENERATABLE);
    const alternatives = body.type === "disjunction" ? body.options : [body];
    const groups = /* @__PURE__ */ new Map();
    for (const alternative of alternatives) {
      const { items, start: start2, end } = stripAnchors(alternative);
      const core = seqOf(items.map((item) => convert(item, ctx)));
      const key = options.semantics === "full" ? "full" : `${start2}:${end}`;
      let group = groups.get(key);
      if (!group) groups.set(key, group = { start: start2, end, cores: [] });
      group.cores.push(core);
    }
    const converted = [...groups.values()].map(({ start: start2, end, cores }) => {
      if (options.semantics === "full") return altOf(cores);
      return seq(start2 ? EMPTY : repeat(anyChar, 0, null), altOf(cores), end ? EMPTY : repeat(anyChar, 0, null));
    });
    return simplifyRegex(withoutNullableRepetitions(simplifyRegex(altOf(converted))));
  }
  var JSON_MUST_ESCAPE = [
    [0, 31],
    [34, 34],
    [92, 92]
  ];
  function jsonEscapeOf(codePoint) {
    return JSON.stringify(String.fromCodePoint(codePoint)).slice(1, -1);
  }
  function jsonClass(ranges) {
    const plain = intersectRanges(ranges, complementRanges(JSON_MUST_ESCAPE));
    const special = intersectRanges(ranges, JSON_MUST_ESCAPE);
    const options = [];
    if (plain.length) options.push(setExpr(plain));
    if (special.length) {
      const letters = [];
      const unicodeLow = [];
      const unicodeHigh = [];
      for (const [lo, hi] of special) {
        for (let cp = lo; cp <= hi; cp++) {
          const escape2 = jsonEscapeOf(cp);
          if (escape2.length === 2) letters.push(escape2.codePointAt(1));
          else (cp < 16 ? unicodeLow : unicodeHigh).push(escape2.codePointAt(5));
        }
      }
      const escapes = [];
      if (letters.length) escapes.push(setExpr(normalizeRanges(letters.map((c) => [c, c]))));
      if (unicodeLow.length) escapes.push(seq(literal("u000"), setExpr(normalizeRanges(unicodeLow.map((c) => [c, c])))));
      if (unicodeHigh.length)
        escapes.push(seq(literal("u001"), setExpr(normalizeRanges(unicodeHigh.map((c) => [c, c])))));
      options.push(seq(literal("\\"), altOf(escapes)));
    }
    return altOf(options);
  }
  function toJsonStringContent(expr) {
    switch (expr.kind) {
      case "literal":
        return literal(codePointsOf(expr.text).map(jsonEscapeOf).join(""));
      case "class":
        return jsonClass(expr.negated ? complementRanges(expr.ranges, GENERATABLE) : expr.ranges);
      case "seq":
        return seqOf(expr.items.map(toJsonStringContent));
      case "alt":
        return altOf(expr.options.map(toJsonStringContent));
      case "repeat":
        return repeat(toJsonStringContent(expr.body), expr.min, expr.max);
      case "ref":
        throw new Error("internal: regex expressions have no rule references");
    }
  }

  // src/grammar/pattern-keys.ts
  function patternExpr(pattern) {
    try {
      return regexToExpr(pattern, "", { semantics: "search" });
    } catch (error) {
      if (error instanceof ConstraintError) return void 0;
      throw error;
    }
  }
  var STACKS_PER_UNIT = 32;
  var PatternMatcher = class {
    constructor() {
      __publicField(this, "automata", /* @__PURE__ */ new Map());
    }
    /**
     * Whether the pattern matches the name; undefined where the regex compiler cannot express the
     * pattern. The automaton's new states are counted through `spend`, a unit per STACKS_PER_UNIT
     * stacks they hold: `.{0,5000}x` against 3,000 characters builds a state of thousands of stacks
     * per character (2.8 s), refused by the compile's work bound instead.
     */
    matches(pattern, name, pointer, spend) {
      try {
        let automaton = this.automata.get(pattern);
        if (automaton === void 0) {
          const expr = patternExpr(pattern);
          automaton = expr ? new Automaton({ rules: /* @__PURE__ */ new Map([["root", expr]]), root: "root" }) : null;
          this.automata.set(pattern, automaton);
        }
        if (automaton === null) return void 0;
        let state = automaton.initial;
        for (const ch of name) {
          const known = automaton.states;
          state = automaton.step(state, automaton.classOf(ch.codePointAt(0)));
          if (state === DEAD) return false;
          if (automaton.states > known) spend(Math.ceil(automaton.stacksOf(state).length / STACKS_PER_UNIT));
        }
        return automaton.isAccepting(state);
      } catch (error) {
        if (error instanceof AutomatonLimitError) {
          throw new ConstraintError(
            "too-large",
            `patternProperties pattern '${pattern}' is too ambiguous to test the name '${name.slice(0, 40)}' against`,
            {
              pointer,
              keyword: "patternProperties"
            }
          );
        }
        throw error;
      }
    }
  };
  var MAX_DERIVATIVE_NODES = 2e4;
  var NODES_PER_UNIT = 16;
  var TooLarge = class extends Error {
  };
  function patternKeyExcluding(expr, names, nesting, share, spend) {
    const root = { terminal: false, children: /* @__PURE__ */ new Map() };
    for (const name of names) {
      let node = root;
      for (const cp of codePointsOf(name)) {
        let child2 = node.children.get(cp);
        if (!child2) node.children.set(cp, child2 = { terminal: false, children: /* @__PURE__ */ new Map() });
        node = child2;
      }
      node.terminal = true;
    }
    const d = new Derivatives(spend);
    try {
      const order = [];
      const pending = [{ node: root, expr, depth: 0 }];
      while (pending.length) {
        const entry = pending.pop();
        order.push(entry);
        for (const [cp, child2] of entry.node.children) {
          const next = d.derive(entry.expr, cp);
          if (next) pending.push({ node: child2, expr: next, depth: entry.depth + 1 });
        }
      }
      const built = /* @__PURE__ */ new Map();
      for (let k = order.length - 1; k >= 0; k--) {
        const { node, expr: here, depth } = order[k];
        const options = [];
        if (!node.terminal && isNullable(here)) options.push(EMPTY);
        for (const [cp, child2] of node.children) {
          const below = built.get(child2);
          if (below) options.push(seqOf([toJsonStringContent(literal(String.fromCodePoint(cp))), below]));
        }
        const others = complementRanges(
          normalizeRanges([...node.children.keys()].map((cp) => [cp, cp])),
          GENERATABLE
        );
        const rest = d.restrictFirst(here, others);
        if (rest) options.push(sharedTails(rest, share));
        const body = options.length ? altOf(options) : null;
        built.set(node, body && depth > 0 && depth % nesting === 0 ? share(body) : body);
      }
      const keys2 = built.get(root);
      return keys2 ? seqOf([literal('"'), keys2, literal('"')]) : void 0;
    } catch (error) {
      if (error instanceof TooLarge) return void 0;
      throw error;
    }
  }
  function sharedTails(rest, share) {
    const one2 = (e) => e.kind === "seq" && e.items.length > 1 ? seqOf([toJsonStringContent(e.items[0]), share(toJsonStringContent(seqOf(e.items.slice(1))))]) : toJsonStringContent(e);
    return rest.kind === "alt" ? altOf(rest.options.map(one2)) : one2(rest);
  }
  var Derivatives = class {
    /** `spend` counts the work in the compile's work bound: a unit per NODES_PER_UNIT nodes. */
    constructor(spend) {
      __publicField(this, "spend", spend);
      __publicField(this, "nodes", 0);
      __publicField(this, "keys", /* @__PURE__ */ new WeakMap());
    }
    made() {
      if (++this.nodes > MAX_DERIVATIVE_NODES) throw new TooLarge();
      if (this.nodes % NODES_PER_UNIT === 0) this.spend(1);
    }
    /** The strings w such that c·w is matched by e. */
    derive(e, c) {
      return this.lead(e, (x) => {
        if (x.kind === "literal")
          return x.text !== "" && x.text.codePointAt(0) === c ? literal(x.text.slice(c > 65535 ? 2 : 1)) : null;
        if (x.kind === "class") return rangesContain(x.ranges, c) !== x.negated ? EMPTY : null;
        return void 0;
      });
    }
    /** The non-empty strings of e whose first character is in `set`. */
    restrictFirst(e, set) {
      return this.lead(e, (x) => {
        if (x.kind === "literal") return x.text !== "" && rangesContain(set, x.text.codePointAt(0)) ? x : null;
        if (x.kind === "class") {
          const members = intersectRanges(x.negated ? complementRanges(x.ranges, GENERATABLE) : x.ranges, set);
          return members.length ? charClass(members) : null;
        }
        return void 0;
      });
    }
    /**
     * What e matches after its first character is taken by `atom` (on literals and classes: the rest
     * after that character, or the atom restricted to it, or null), the rest of e unchanged.
     */
    lead(e, atom) {
      this.made();
      const own2 = atom(e);
      if (own2 !== void 0) return own2;
      switch (e.kind) {
        case "seq": {
          const options = [];
          for (let i = 0; i < e.items.length; i++) {
            const head = this.lead(e.items[i], atom);
            if (head) options.push(seqOf([head, ...e.items.slice(i + 1)]));
            if (!isNullable(e.items[i])) break;
          }
          return this.union(options);
        }
        case "alt":
          return this.union(e.options.map((o) => this.lead(o, atom)).filter((o) => o !== null));
        case "repeat": {
          if (e.max === 0) return null;
          const head = this.lead(e.body, atom);
          return head && seqOf([head, repeat(e.body, Math.max(0, e.min - 1), e.max === null ? null : e.max - 1)]);
        }
        default:
          throw new Error("internal: a regex expression has no rule references");
      }
    }
    /** An alternation of distinct options (flattened), or null when there are none. */
    union(options) {
      const seen = /* @__PURE__ */ new Set();
      const out = [];
      for (const option of options.flatMap((o) => o.kind === "alt" ? o.options : [o])) {
        const key = this.keyOf(option);
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(option);
      }
      return out.length ? altOf(out) : null;
    }
    keyOf(e) {
      let key = this.keys.get(e);
      if (key !== void 0) return key;
      this.made();
      switch (e.kind) {
        case "literal":
          key = JSON.stringify(e.text);
          break;
        case "class":
          key = `[${e.negated ? "^" : ""}${e.ranges.map(([lo, hi]) => `${lo}-${hi}`).join(",")}]`;
          break;
        case "seq":
          key = `(${e.items.map((i) => this.keyOf(i)).join(" ")})`;
          break;
        case "alt":
          key = `(${e.options.map((o) => this.keyOf(o)).join("|")})`;
          break;
        case "repeat":
          key = `${this.keyOf(e.body)}{${e.min},${e.max ?? ""}}`;
          break;
        case "ref":
          key = e.name;
          break;
      }
      this.keys.set(e, key);
      return key;
    }
  };

  // src/grammar/schema-types.ts
  var ANY = { kind: "any" };
  var unsatisfiable = (reason, pointer, keyword) => ({
    kind: "unsatisfiable",
    reason,
    pointer,
    keyword
  });
  var isUnsatisfiable = (value) => typeof value === "object" && value !== null && value.kind === "unsatisfiable";
  var EMPTY_NUMBER = { multipleOf: [], formats: [] };
  var EMPTY_STRING = { patterns: [], formats: [] };
  var EMPTY_ARRAY = {};
  var EMPTY_OBJECT = { properties: /* @__PURE__ */ new Map(), required: [], patterns: [] };

  // src/grammar/schema-intersect.ts
  function force(parts, pointer, depth, ctx) {
    const flat = [];
    const seen = /* @__PURE__ */ new Set();
    const unions = [];
    let failure;
    const walk = (part, hops) => {
      if (failure) return;
      if (part.kind === "any") return;
      if (part.kind === "unsatisfiable") {
        failure = part;
        return;
      }
      if (seen.has(part.id)) return;
      seen.add(part.id);
      if (part.kind === "ref") {
        if (depth + hops > ctx.maxDepth) {
          throw new ConstraintError(
            "too-deep",
            "recursive $ref inside allOf/anyOf cannot be merged within the depth limit",
            { pointer, keyword: "$ref" }
          );
        }
        walk(ctx.parser.target(part.ref, part.pointer).schema, hops + 1);
      } else if (part.kind === "and") for (const inner of part.parts) walk(inner, hops);
      else if (part.kind === "union") unions.push(part);
      else flat.push(part);
    };
    for (const part of parts) walk(part, 0);
    if (failure) return failure;
    let merged2;
    if (flat.length === 1) merged2 = flat[0];
    else if (flat.length > 1) merged2 = mergeNodes(flat, pointer, ctx);
    if (merged2?.kind === "unsatisfiable") return merged2;
    if (unions.length === 0) return merged2 ?? ANY;
    if (!merged2 && unions.length === 1) return unions[0];
    let options = [merged2 ? [merged2] : []];
    for (const union2 of unions) {
      const size = options.length * union2.options.length;
      if (size > ctx.maxBranches) {
        throw new ConstraintError(
          "too-large",
          `allOf multiplies ${union2.keyword} out to ${size} alternatives, above the limit of ${ctx.maxBranches}`,
          {
            pointer,
            keyword: union2.keyword
          }
        );
      }
      ctx.work.spend(1 + Math.floor(size / 16), pointer);
      options = options.flatMap((option) => union2.options.map((branch) => [...option, branch]));
    }
    const keyword = unions.every((u) => u.keyword === "anyOf") ? "anyOf" : "oneOf";
    return {
      kind: "union",
      id: ctx.parser.newId(),
      keyword,
      options: options.map((list) => ctx.parser.and(list, pointer)),
      pointer
    };
  }
  function intersectTypes(a, b) {
    const out = /* @__PURE__ */ new Set();
    for (const t of a) {
      if (b.includes(t)) out.add(t);
      else if (t === "integer" && b.includes("number")) out.add("integer");
      else if (t === "number" && b.includes("integer")) out.add("integer");
    }
    return [...out];
  }
  var tighterLower = (a, b) => !a ? b : !b ? a : a.value === b.value ? a.exclusive ? a : b : a.value > b.value ? a : b;
  var tighterUpper = (a, b) => !a ? b : !b ? a : a.value === b.value ? a.exclusive ? a : b : a.value < b.value ? a : b;
  var larger = (a, b) => a === void 0 ? b : b === void 0 ? a : Math.max(a, b);
  var smaller = (a, b) => a === void 0 ? b : b === void 0 ? a : Math.min(a, b);
  function union(list, keys2, more, key) {
    for (const item of more) {
      const k = key(item);
      if (keys2.has(k)) continue;
      keys2.add(k);
      list.push(item);
    }
  }
  function mergeNodes(nodes, pointer, ctx) {
    const first = nodes[0];
    let types = first.types;
    const mentions = new Set(first.mentions);
    let values = first.values;
    let min = first.number.min;
    let max = first.number.max;
    const multipleOf = [...first.number.multipleOf];
    const numberFormats = [...first.number.formats];
    let minLength = first.string.minLength;
    let maxLength = first.string.maxLength;
    const patterns = [];
    const patternKeys = /* @__PURE__ */ new Set();
    union(patterns, patternKeys, first.string.patterns, (p) => p.value);
    const formats = [];
    const formatKeys = /* @__PURE__ */ new Set();
    union(formats, formatKeys, first.string.formats, (f) => f.value);
    let array3 = first.array;
    let object2 = first.object;
    const required = [...first.object.required];
    const requiredKeys = new Set(required);
    let invalid2 = first.invalid;
    for (const node of nodes.slice(1)) {
      ctx.work.spend(
        1 + Math.floor((node.object.properties.size + node.object.required.length + (node.values?.length ?? 0)) / 16),
        pointer
      );
      if (node.types) {
        if (types) {
          types = intersectTypes(types, node.types);
          if (types.length === 0) return unsatisfiable("allOf parts allow no common type", pointer, "type");
        } else types = node.types;
      }
      for (const t of node.mentions) mentions.add(t);
      if (node.values) {
        const ours = values && new Set(values);
        values = ours ? node.values.filter((v) => ours.has(v)) : node.values;
      }
      min = tighterLower(min, node.number.min);
      max = tighterUpper(max, node.number.max);
      multipleOf.push(...node.number.multipleOf);
      numberFormats.push(...node.number.formats);
      minLength = larger(minLength, node.string.minLength);
      maxLength = smaller(maxLength, node.string.maxLength);
      union(patterns, patternKeys, node.string.patterns, (p) => p.value);
      union(formats, formatKeys, node.string.formats, (f) => f.value);
      array3 = mergeArrays(array3, node.array, pointer, ctx);
      object2 = mergeObjects(object2, node.object, pointer, ctx);
      union(required, requiredKeys, node.object.required, (r) => r);
      if (node.invalid) invalid2 = { ...node.invalid, ...invalid2 };
    }
    return {
      kind: "node",
      id: ctx.parser.newId(),
      pointer,
      types,
      mentions,
      values,
      number: { min, max, multipleOf, formats: numberFormats },
      string: { minLength, maxLength, patterns, formats },
      array: array3,
      object: { ...object2, required },
      invalid: invalid2
    };
  }
  function mergeArrays(a, b, pointer, ctx) {
    const both = (x, y) => x && y ? ctx.parser.and([x, y], pointer) : x ?? y;
    let prefix = a.prefix;
    if (a.prefix?.length || b.prefix?.length) {
      const pa = a.prefix ?? [];
      const pb = b.prefix ?? [];
      prefix = Array.from({ length: Math.max(pa.length, pb.length) }, (_, i) => {
        return both(i < pa.length ? pa[i] : a.items, i < pb.length ? pb[i] : b.items) ?? ANY;
      });
    } else prefix = a.prefix ?? b.prefix;
    return {
      prefix,
      items: both(a.items, b.items),
      minItems: larger(a.minItems, b.minItems),
      maxItems: smaller(a.maxItems, b.maxItems)
    };
  }
  function undeclared(part, name, pointer, ctx) {
    const matching = part.patterns.filter(
      (p) => p.patterns.every((pattern) => ctx.patternMatches(pattern, name, pointer) === true)
    );
    if (matching.length === 1) return matching[0].schema;
    if (matching.length > 1)
      return ctx.parser.and(
        matching.map((p) => p.schema),
        pointer
      );
    return part.additional;
  }
  function survivingPatterns(mine, other, pointer, ctx) {
    if (other.additional === void 0) return [...mine.patterns];
    if (other.additional.kind === "unsatisfiable") {
      return mine.patterns.flatMap(
        (p) => other.patterns.map((q2) => ({
          patterns: [.../* @__PURE__ */ new Set([...p.patterns, ...q2.patterns])],
          schema: ctx.parser.and([p.schema, q2.schema], pointer),
          pointer
        }))
      );
    }
    const extra = other.additional;
    return mine.patterns.map((p) => ({ ...p, schema: ctx.parser.and([p.schema, extra], pointer) }));
  }
  function mergeObjects(a, b, pointer, ctx) {
    if (a.properties.size === 0 && b.properties.size === 0 && a.patterns.length === 0 && b.patterns.length === 0) {
      return {
        properties: a.properties,
        required: a.required,
        patterns: [],
        additional: a.additional && b.additional ? ctx.parser.and([a.additional, b.additional], pointer) : a.additional ?? b.additional,
        minProperties: larger(a.minProperties, b.minProperties),
        maxProperties: smaller(a.maxProperties, b.maxProperties)
      };
    }
    const properties = /* @__PURE__ */ new Map();
    const restrict2 = (sub, other, name) => {
      const theirs = undeclared(other, name, pointer, ctx);
      return theirs === void 0 ? sub : ctx.parser.and([sub, theirs], pointer);
    };
    for (const [name, sub] of a.properties)
      properties.set(
        name,
        b.properties.has(name) ? ctx.parser.and([sub, b.properties.get(name)], pointer) : restrict2(sub, b, name)
      );
    for (const [name, sub] of b.properties) if (!a.properties.has(name)) properties.set(name, restrict2(sub, a, name));
    return {
      properties,
      required: a.required,
      patterns: [...survivingPatterns(a, b, pointer, ctx), ...survivingPatterns(b, a, pointer, ctx)],
      additional: a.additional && b.additional ? ctx.parser.and([a.additional, b.additional], pointer) : a.additional ?? b.additional,
      minProperties: larger(a.minProperties, b.minProperties),
      maxProperties: smaller(a.maxProperties, b.maxProperties)
    };
  }

  // src/grammar/dfa.ts
  var MAX_CODE_POINT2 = 1114111;
  var TooManyStates = class extends Error {
  };
  function explore(bounds, start2, id, step, accept, budget) {
    const classes = bounds.length;
    const ids = /* @__PURE__ */ new Map([[id(start2), 0]]);
    const keys2 = [start2];
    let next = new Int32Array(Math.max(16, classes * 16)).fill(-1);
    const accepting = [];
    for (let s = 0; s < keys2.length; s++) {
      if (keys2.length > budget.maxStates) throw new TooManyStates();
      if (s % 8 === 0) budget.spend(1 + Math.floor(classes / 64));
      accepting.push(accept(keys2[s]));
      for (let c = 0; c < classes; c++) {
        const target = step(keys2[s], c);
        if (target === null) continue;
        const key = id(target);
        let t = ids.get(key);
        if (t === void 0) {
          t = keys2.length;
          ids.set(key, t);
          keys2.push(target);
        }
        if (next.length < (s + 1) * classes) {
          const grown = new Int32Array(next.length * 2).fill(-1);
          grown.set(next);
          next = grown;
        }
        next[s * classes + c] = t;
      }
    }
    const table = new Int32Array(keys2.length * classes).fill(-1);
    table.set(next.subarray(0, Math.min(next.length, table.length)));
    return { bounds, next: table, accepting };
  }
  function dfaOfExpr(expr, budget) {
    try {
      const automaton = new Automaton({ rules: /* @__PURE__ */ new Map([["root", expr]]), root: "root" });
      return explore(
        [...automaton.bounds],
        automaton.initial,
        String,
        (state, cls) => {
          const next = automaton.step(state, cls);
          return next === DEAD ? null : next;
        },
        (state) => automaton.isAccepting(state),
        budget
      );
    } catch (error) {
      if (error instanceof TooManyStates || error instanceof AutomatonLimitError || error instanceof RangeError)
        return void 0;
      throw error;
    }
  }
  function dfaOfSteps(chars, start2, key, step, accept, budget) {
    const bounds = classBoundsOf([chars.map((c) => [c, c])]);
    const member = new Set(chars);
    try {
      return explore(
        bounds,
        start2,
        key,
        (state, cls) => member.has(bounds[cls]) ? step(state, bounds[cls]) : null,
        accept,
        budget
      );
    } catch (error) {
      if (error instanceof TooManyStates) return void 0;
      throw error;
    }
  }
  function lengthDfa(chars, min, max) {
    const bounds = classBoundsOf([chars]);
    const inside = bounds.map((lo) => chars.some(([a, b]) => a <= lo && lo <= b));
    const last = max ?? min;
    const states = last + 1;
    const next = new Int32Array(states * bounds.length).fill(-1);
    const accepting = [];
    for (let s = 0; s < states; s++) {
      accepting.push(s >= min);
      const to = s < last ? s + 1 : max === null ? s : -1;
      if (to < 0) continue;
      for (let c = 0; c < bounds.length; c++) if (inside[c]) next[s * bounds.length + c] = to;
    }
    return { bounds, next, accepting };
  }
  function classBoundsOf(sets) {
    const cuts = /* @__PURE__ */ new Set([0]);
    for (const ranges of sets) {
      for (const [lo, hi] of ranges) {
        cuts.add(lo);
        if (hi < MAX_CODE_POINT2) cuts.add(hi + 1);
      }
    }
    return [...cuts].sort((a, b) => a - b);
  }
  function classOf(bounds, codePoint) {
    let lo = 0;
    let hi = bounds.length - 1;
    while (lo < hi) {
      const mid = lo + hi + 1 >> 1;
      if (bounds[mid] <= codePoint) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
  function intersectDfas(dfas, budget) {
    if (dfas.length === 1) return dfas[0];
    const cuts = /* @__PURE__ */ new Set();
    for (const dfa of dfas) for (const b of dfa.bounds) cuts.add(b);
    const bounds = [...cuts].sort((a, b) => a - b);
    const maps = dfas.map((dfa) => bounds.map((lo) => classOf(dfa.bounds, lo)));
    try {
      return explore(
        bounds,
        dfas.map(() => 0),
        (key) => key.join(","),
        (key, cls) => {
          const out = [];
          for (let i = 0; i < dfas.length; i++) {
            const dfa = dfas[i];
            const t = dfa.next[key[i] * dfa.bounds.length + maps[i][cls]];
            if (t < 0) return null;
            out.push(t);
          }
          return out;
        },
        (key) => key.every((s, i) => dfas[i].accepting[s]),
        budget
      );
    } catch (error) {
      if (error instanceof TooManyStates) return void 0;
      throw error;
    }
  }
  function liveStates(dfa) {
    const classes = dfa.bounds.length;
    const n = dfa.accepting.length;
    const back = Array.from({ length: n }, () => []);
    for (let s = 0; s < n; s++)
      for (let c = 0; c < classes; c++) if (dfa.next[s * classes + c] >= 0) back[dfa.next[s * classes + c]].push(s);
    const live = dfa.accepting.slice();
    const pending = live.flatMap((a, s) => a ? [s] : []);
    while (pending.length) for (const p of back[pending.pop()]) if (!live[p]) live[p] = true, pending.push(p);
    return live;
  }
  var dfaIsEmpty = (dfa) => !liveStates(dfa)[0];
  function minimizeDfa(dfa) {
    const classes = dfa.bounds.length;
    const live = liveStates(dfa);
    const target = (s, c) => {
      const t = dfa.next[s * classes + c];
      return t >= 0 && live[t] ? t : -1;
    };
    const block = refine(dfa, live);
    const order = /* @__PURE__ */ new Map([[block[0], 0]]);
    const representative = [0];
    for (let i = 0; i < representative.length; i++) {
      const s = representative[i];
      for (let c = 0; c < classes; c++) {
        const t = target(s, c);
        if (t < 0 || order.has(block[t])) continue;
        order.set(block[t], order.size);
        representative.push(t);
      }
    }
    const next = new Int32Array(representative.length * classes).fill(-1);
    representative.forEach((s, i) => {
      for (let c = 0; c < classes; c++) {
        const t = target(s, c);
        if (t >= 0) next[i * classes + c] = order.get(block[t]);
      }
    });
    return { bounds: dfa.bounds, next, accepting: representative.map((s) => dfa.accepting[s]) };
  }
  function refine(dfa, live) {
    const classes = dfa.bounds.length;
    const n = dfa.accepting.length;
    const size = n + 1;
    const step = (s, c) => {
      if (s === n) return n;
      const t = dfa.next[s * classes + c];
      return t >= 0 && live[t] ? t : n;
    };
    const start2 = new Int32Array(classes * size + 1);
    for (let c = 0; c < classes; c++) for (let s = 0; s < size; s++) start2[c * size + step(s, c) + 1]++;
    for (let i = 0; i < classes * size; i++) start2[i + 1] += start2[i];
    const fill = start2.slice(0, classes * size);
    const preds = new Int32Array(classes * size);
    for (let c = 0; c < classes; c++) for (let s = 0; s < size; s++) preds[fill[c * size + step(s, c)]++] = s;
    const elems = new Int32Array(size);
    const loc = new Int32Array(size);
    const block = new Int32Array(size);
    const first = [];
    const end = [];
    let k = 0;
    for (const accepting of [true, false]) {
      const from = k;
      for (let s = 0; s < size; s++) {
        if ((s < n && dfa.accepting[s]) !== accepting) continue;
        elems[k] = s;
        loc[s] = k;
        block[s] = first.length;
        k++;
      }
      if (k > from) {
        first.push(from);
        end.push(k);
      }
    }
    const pending = first.map((_, b) => b);
    const waiting = first.map(() => true);
    const marked = [];
    const touched = [];
    const isMarked = new Uint8Array(size);
    while (pending.length) {
      const a = pending.pop();
      waiting[a] = false;
      const splitter = Array.from(elems.subarray(first[a], end[a]));
      for (let c = 0; c < classes; c++) {
        for (const t of splitter) {
          for (let i = start2[c * size + t]; i < start2[c * size + t + 1]; i++) {
            const s = preds[i];
            if (isMarked[s]) continue;
            isMarked[s] = 1;
            const b = block[s];
            if (marked[b] === void 0 || marked[b] === 0) touched.push(b);
            const at3 = first[b] + (marked[b] ?? 0);
            const other = elems[at3];
            elems[loc[s]] = other;
            loc[other] = loc[s];
            elems[at3] = s;
            loc[s] = at3;
            marked[b] = (marked[b] ?? 0) + 1;
          }
        }
        for (const b of touched) {
          const count = marked[b];
          marked[b] = 0;
          for (let i = first[b]; i < first[b] + count; i++) isMarked[elems[i]] = 0;
          if (count === end[b] - first[b]) continue;
          const nb = first.length;
          first.push(first[b]);
          end.push(first[b] + count);
          first[b] += count;
          for (let i = first[nb]; i < end[nb]; i++) block[elems[i]] = nb;
          if (waiting[b]) {
            pending.push(nb);
            waiting.push(true);
          } else {
            const smaller2 = end[nb] - first[nb] <= end[b] - first[b] ? nb : b;
            waiting.push(smaller2 === nb);
            if (smaller2 === b) waiting[b] = true;
            pending.push(smaller2);
          }
        }
        touched.length = 0;
      }
    }
    return block;
  }
  function dfaToExpr(input, out) {
    const dfa = minimizeDfa(input);
    const classes = dfa.bounds.length;
    const n = dfa.accepting.length;
    const edges = [];
    const indegree = new Array(n).fill(0);
    for (let s = 0; s < n; s++) {
      const byTarget = /* @__PURE__ */ new Map();
      for (let c = 0; c < classes; c++) {
        const t = dfa.next[s * classes + c];
        if (t < 0) continue;
        let ranges = byTarget.get(t);
        if (!ranges) byTarget.set(t, ranges = []);
        ranges.push([dfa.bounds[c], c + 1 < classes ? dfa.bounds[c + 1] - 1 : MAX_CODE_POINT2]);
      }
      edges.push([...byTarget].map(([target, ranges]) => ({ target, ranges: normalizeRanges(ranges) })));
      for (const t of byTarget.keys()) indegree[t]++;
    }
    let cost = 0;
    for (const list of edges) for (const e of list) cost += 1 + e.ranges.length;
    if (cost > out.maxCost) return void 0;
    const names = /* @__PURE__ */ new Map();
    const named = (s) => s === 0 || indegree[s] > 1 && edges[s].length > 0;
    for (let s = 0; s < n; s++) if (named(s)) names.set(s, out.reserve());
    const bodies = /* @__PURE__ */ new Map();
    const depthOf = /* @__PURE__ */ new Map();
    const body = (root) => {
      const stack = [root];
      while (stack.length) {
        const s = stack[stack.length - 1];
        const missing2 = edges[s].filter((e) => !named(e.target) && !bodies.has(e.target)).map((e) => e.target);
        if (missing2.length) {
          stack.push(...missing2);
          continue;
        }
        stack.pop();
        if (bodies.has(s)) continue;
        let depth = 0;
        const options = edges[s].map((e) => {
          if (named(e.target)) return seqOf([out.step(e.ranges), { kind: "ref", name: names.get(e.target) }]);
          depth = Math.max(depth, depthOf.get(e.target) + 1);
          return seqOf([out.step(e.ranges), bodies.get(e.target)]);
        });
        let expr = options.length === 0 ? EMPTY : dfa.accepting[s] ? optional(altOf(options)) : altOf(options);
        if (s !== root && depth >= out.nesting) {
          const name = out.reserve();
          out.define(name, expr);
          expr = { kind: "ref", name };
          depth = 0;
        }
        bodies.set(s, expr);
        depthOf.set(s, depth);
      }
      return bodies.get(root);
    };
    for (const [s, name] of names) if (s !== 0) out.define(name, body(s));
    const start2 = body(0);
    out.define(names.get(0), start2);
    return { kind: "ref", name: names.get(0) };
  }
  var MAX_EMIT_COST = 3e3;
  function dfaRules(dfa, builder, hint, step) {
    return dfaToExpr(dfa, {
      step,
      reserve: () => builder.reserve(hint),
      define: (name, body) => builder.define(name, body),
      nesting: 64,
      maxCost: MAX_EMIT_COST
    });
  }
  var rangesExpr = (ranges) => ranges.length === 1 && ranges[0][0] === ranges[0][1] ? literal(String.fromCodePoint(ranges[0][0])) : charClass(ranges);

  // src/grammar/schema-objects.ts
  var NESTING_PER_RULE2 = 64;
  var MAX_OBJECT_STATES = 4e3;
  function entryMatches(entry, name, pointer, ctx) {
    ctx.spend(1 + Math.floor(name.length / 16), pointer);
    for (const pattern of entry.patterns) {
      const matches = ctx.patternMatch(pattern, name, pointer);
      if (matches === void 0) {
        throw new ConstraintError(
          "unsupported-regex",
          `required property '${name}' is declared only by patternProperties, and the regex compiler cannot express the pattern '${pattern}' to tell whether it applies`,
          { pointer: pointerChild(pointerChild(pointer, "patternProperties"), pattern), keyword: "patternProperties" }
        );
      }
      if (!matches) return false;
    }
    return true;
  }
  function objectExpr(part, pointer, hint, depth, ctx) {
    const minProperties = part.minProperties ?? 0;
    const maxProperties = part.maxProperties ?? null;
    const required = new Set(part.required);
    const properties = part.properties;
    const additional = part.additional;
    const patterns = part.patterns;
    const declaresMembers = properties.size > 0 || required.size > 0 || patterns.length > 0;
    const extrasSchema = additional !== void 0 ? additional : declaresMembers && ctx.closedByDefault ? false : true;
    refuseTooManyProperties((/* @__PURE__ */ new Set([...properties.keys(), ...required])).size, pointer);
    const members = [];
    for (const [key, declared] of properties) {
      const at3 = pointerChild(pointerChild(pointer, "properties"), key);
      const matching = patterns.filter(
        (p) => p.patterns.every((pattern) => ctx.patternMatch(pattern, key, pointer) === true)
      );
      const sub = matching.length === 0 ? declared : ctx.and([declared, ...matching.map((p) => p.schema)], at3);
      if (required.has(key)) {
        if (declared.kind === "unsatisfiable") return unsatisfiable(`required property '${key}' has schema false`, at3);
        const value = ctx.emit(sub, at3, depth + 1);
        if ("kind" in value && value.kind === "unsatisfiable") return value;
        members.push({ key, value, required: true });
      } else {
        const value = ctx.optionalPart(sub, at3, depth + 1);
        if (value) members.push({ key, value, required: false });
      }
    }
    for (const key of required) {
      if (properties.has(key)) continue;
      const matching = patterns.filter((p) => entryMatches(p, key, pointer, ctx));
      let value;
      if (matching.length > 0) {
        const schema = matching.length === 1 ? matching[0].schema : ctx.and(
          matching.map((p) => p.schema),
          pointer
        );
        value = ctx.emit(schema, matching.length === 1 ? matching[0].pointer : pointer, depth + 1);
      } else if (additional?.kind === "unsatisfiable") {
        return unsatisfiable(
          `required property '${key}' is not allowed by additionalProperties: false (nor by patternProperties)`,
          pointer,
          "required"
        );
      } else {
        value = ctx.emit(additional ?? { kind: "any" }, pointerChild(pointer, "additionalProperties"), depth + 1);
      }
      if ("kind" in value && value.kind === "unsatisfiable") return value;
      members.push({ key, value, required: true });
    }
    const extraOptions = [];
    const memberNames = [.../* @__PURE__ */ new Set([...members.map((m) => m.key), ...properties.keys()])];
    for (const entry of patterns) {
      const option = ctx.tentative(() => {
        const value = ctx.optionalPart(entry.schema, entry.pointer, depth + 1);
        const key = value && patternKey(entry, memberNames, hint, ctx);
        return key && seq(ctx.builder.rule(`${hint}-pattern-key`, key), literal(":"), value);
      });
      if (option) extraOptions.push(option);
    }
    if (extrasSchema !== false && !(typeof extrasSchema === "object" && extrasSchema.kind === "unsatisfiable")) {
      const option = ctx.tentative(() => {
        const names = members.map((m) => m.key).concat([...properties.keys()]);
        const namesKey = names.join("\0");
        let extraKey = ctx.extraKeys.get(namesKey);
        if (!extraKey) {
          extraKey = ctx.builder.rule(
            `${hint}-extra-key`,
            extraKeyExpr(names, pointer, (name, body2) => ctx.builder.rule(`${hint}-extra-key-${name}`, body2))
          );
          ctx.extraKeys.set(namesKey, extraKey);
        }
        const extraValue = ctx.optionalPart(
          extrasSchema === true ? { kind: "any" } : extrasSchema,
          pointerChild(pointer, "additionalProperties"),
          depth + 1
        );
        return extraValue && seq(extraKey, literal(":"), extraValue);
      });
      if (option) extraOptions.push(option);
    }
    const extraMember = extraOptions.length === 0 ? void 0 : extraOptions.length === 1 ? extraOptions[0] : ctx.builder.rule(`${hint}-extra`, altOf(extraOptions));
    if (extraMember && minProperties > members.length) {
      ctx.approximate(
        pointer,
        "minProperties",
        "additional keys could repeat (a grammar cannot keep keys distinct); the validator checks the count"
      );
    }
    const body = countedMembers(members, extraMember, minProperties, maxProperties, pointer, hint, ctx);
    if (body === null)
      return unsatisfiable(
        "no object satisfies properties/required/additionalProperties with minProperties/maxProperties",
        pointer
      );
    return ctx.builder.rule(`${hint}-object`, seq(literal("{"), body, literal("}")));
  }
  function countedMembers(members, extraMember, minProperties, maxProperties, pointer, hint, ctx) {
    const n = members.length;
    const counts = maxProperties !== null ? maxProperties + 1 : Math.max(minProperties, 1) + 1;
    if (n * counts > MAX_OBJECT_STATES) {
      throw new ConstraintError(
        "too-large",
        `minProperties/maxProperties over ${n} properties needs ${n * counts} counting rules, above the limit of ${MAX_OBJECT_STATES}`,
        {
          pointer,
          keyword: maxProperties !== null ? "maxProperties" : "minProperties"
        }
      );
    }
    const memo = /* @__PURE__ */ new Map();
    const extras = (count) => {
      const needed = Math.max(0, minProperties - count);
      const room = maxProperties === null ? null : maxProperties - count;
      if (room !== null && room < needed) return null;
      if (!extraMember) return needed > 0 ? null : EMPTY;
      if (count > 0) return repeat(seq(literal(","), extraMember), needed, room);
      return listExpr(extraMember, needed, room);
    };
    const state = (i, count) => {
      const key = maxProperties === null ? Math.min(count, Math.max(minProperties, 1)) : count;
      const memoKey = `${i}:${key}`;
      if (memo.has(memoKey)) return memo.get(memoKey);
      let result;
      if (i === n) result = extras(count);
      else {
        const member = members[i];
        const next = maxProperties !== null && count + 1 > maxProperties ? null : state(i + 1, count + 1);
        const take2 = next === null ? null : seq(count > 0 ? literal(",") : EMPTY, literal(JSON.stringify(member.key) + ":"), member.value, next);
        if (member.required) result = take2;
        else {
          const skip = state(i + 1, count);
          const options = [take2, skip].filter((o) => o !== null);
          result = options.length === 0 ? null : options.length === 1 ? options[0] : ctx.builder.rule(`${hint}-rest`, altOf(options));
        }
      }
      memo.set(memoKey, result);
      return result;
    };
    return state(0, 0);
  }
  function listExpr(item, min, max) {
    if (max === 0) return EMPTY;
    const list = seq(item, repeat(seq(literal(","), item), Math.max(0, min - 1), max === null ? null : max - 1));
    return min === 0 ? optional(list) : list;
  }
  function patternKey(entry, names, hint, ctx) {
    const pointer = entry.pointer;
    const exprs = entry.patterns.map(patternExpr);
    if (exprs.some((e) => e === void 0)) return void 0;
    const taken = names.filter(
      (name) => entry.patterns.every((pattern) => ctx.patternMatch(pattern, name, pointer) === true)
    );
    ctx.spend(1 + names.length, pointer);
    if (exprs.length === 1) {
      if (taken.length === 0) return seq(literal('"'), toJsonStringContent(exprs[0]), literal('"'));
      return patternKeyExcluding(
        exprs[0],
        taken,
        NESTING_PER_RULE2,
        (body) => ctx.builder.rule(`${hint}-pattern-key-rest`, body),
        (units) => ctx.spend(units, pointer)
      );
    }
    const budget = ctx.dfaBudget(pointer);
    const dfas = exprs.map((e) => dfaOfExpr(e, budget));
    if (taken.length) dfas.push(noneOf(taken, budget));
    const product = dfas.every((d) => d !== void 0) ? intersectDfas(dfas, budget) : void 0;
    if (!product || dfaIsEmpty(product)) return void 0;
    const content2 = dfaRules(
      product,
      ctx.builder,
      `${hint}-pattern-key-part`,
      (ranges) => toJsonStringContent(rangesExpr(ranges))
    );
    return content2 && seq(literal('"'), content2, literal('"'));
  }
  function noneOf(names, budget) {
    const children2 = [/* @__PURE__ */ new Map()];
    const terminal = [false];
    for (const name of names) {
      let node = 0;
      for (const ch of name) {
        const cp = ch.codePointAt(0);
        let child2 = children2[node].get(cp);
        if (child2 === void 0) {
          child2 = children2.length;
          children2[node].set(cp, child2);
          children2.push(/* @__PURE__ */ new Map());
          terminal.push(false);
        }
        node = child2;
      }
      terminal[node] = true;
    }
    if (children2.length + 1 > budget.maxStates) return void 0;
    budget.spend(1 + Math.floor(children2.length / 8));
    const used = /* @__PURE__ */ new Set();
    for (const map of children2) for (const cp of map.keys()) used.add(cp);
    const bounds = classBoundsOf([GENERATABLE, ...[...used].map((cp) => [[cp, cp]])]);
    const classes = bounds.length;
    const out = children2.length;
    const next = new Int32Array((out + 1) * classes).fill(-1);
    for (let c = 0; c < classes; c++) {
      if (!rangesContain(GENERATABLE, bounds[c])) continue;
      for (let node = 0; node < out; node++)
        next[node * classes + c] = (used.has(bounds[c]) ? children2[node].get(bounds[c]) : void 0) ?? out;
      next[out * classes + c] = out;
    }
    return { bounds, next, accepting: [...terminal.map((t) => !t), true] };
  }
  var KEY_RAW = normalizeRanges([
    [0, 31],
    [34, 34],
    [92, 92],
    [127, 127]
  ]);
  var KEY_ESCAPES = ['"', "\\", "b", "f", "n", "r", "t"];
  function keyTokens(key) {
    const tokens = [];
    for (const ch of key) tokens.push(JSON.stringify(ch).slice(1, -1));
    return tokens;
  }
  var MAX_EXCLUDED_KEY_CHARS = 8e3;
  function extraKeyExpr(names, pointer, share) {
    const root = { terminal: false, children: /* @__PURE__ */ new Map() };
    let nodes = 0;
    for (const name of names) {
      let node = root;
      for (const token of keyTokens(name)) {
        let child2 = node.children.get(token);
        if (!child2) {
          node.children.set(token, child2 = { terminal: false, children: /* @__PURE__ */ new Map() });
          if (++nodes > MAX_EXCLUDED_KEY_CHARS) {
            throw new ConstraintError(
              "too-large",
              `additionalProperties beside property names of more than ${MAX_EXCLUDED_KEY_CHARS} characters in all (shared prefixes counted once): the grammar keeping extra keys apart from them would be too large`,
              { pointer, keyword: "additionalProperties" }
            );
          }
        }
        node = child2;
      }
      node.terminal = true;
    }
    const rawChar = (excluded) => charClass(normalizeRanges([...KEY_RAW, ...excluded.map((c) => [c, c])]), true);
    const escapeChar = (excluded) => {
      const letters = KEY_ESCAPES.filter((e) => !excluded.includes(e));
      return letters.length ? seq(literal("\\"), charClass(normalizeRanges(letters.map((e) => [e.charCodeAt(0), e.charCodeAt(0)])))) : void 0;
    };
    const anyKeyChar = alt(rawChar([]), escapeChar([]));
    const anyRest = share("tail", seq(repeat(anyKeyChar, 0, null), literal('"')));
    const order = [];
    const pending = [{ node: root, depth: 0 }];
    while (pending.length) {
      const entry = pending.pop();
      order.push(entry);
      for (const child2 of entry.node.children.values()) pending.push({ node: child2, depth: entry.depth + 1 });
    }
    const built = /* @__PURE__ */ new Map();
    for (let k = order.length - 1; k >= 0; k--) {
      const { node, depth } = order[k];
      const options = [];
      if (!node.terminal) options.push(literal('"'));
      const rawChildren = [];
      const escapeChildren = [];
      for (const [token, child2] of node.children) {
        if (token.length === 1) rawChildren.push(token.codePointAt(0));
        else if (token.length === 2) escapeChildren.push(token[1]);
        else continue;
        options.push(seq(literal(token), built.get(child2)));
      }
      options.push(seq(rawChar(rawChildren), anyRest));
      const escape2 = escapeChar(escapeChildren);
      if (escape2) options.push(seq(escape2, anyRest));
      const expr = altOf(options);
      built.set(node, depth > 0 && depth % NESTING_PER_RULE2 === 0 ? share("rest", expr) : expr);
    }
    return seq(literal('"'), built.get(root));
  }

  // src/grammar/schema-policy.ts
  var TYPE_NAMES2 = ["null", "boolean", "object", "array", "string", "number", "integer"];
  var object = ["object"];
  var array2 = ["array"];
  var string = ["string"];
  var number = ["number"];
  var KEYWORD_POLICY = {
    type: { status: "compiled", note: 'single or array; `["x", "null"]` for nullable values' },
    enum: {
      status: "compiled",
      note: "any JSON value, written compactly; values the rest of the schema rejects (as the specification reads it) are dropped"
    },
    const: { status: "compiled", note: "as `enum` of one value" },
    properties: {
      status: "compiled",
      types: object,
      note: "in schema order; optional properties are truly optional (nested alternatives)"
    },
    required: {
      status: "compiled",
      types: object,
      note: "a required name not declared takes the patternProperties it matches, else additionalProperties"
    },
    additionalProperties: {
      status: "compiled",
      types: object,
      note: "`false`, `true` or a schema; extra keys never spell a declared key; absent: none beside declared members (option `additionalProperties: true`: any)"
    },
    minProperties: {
      status: "compiled",
      types: object,
      note: "counted over optional and additional properties (at most 4000 counting states)"
    },
    maxProperties: { status: "compiled", types: object, note: "as minProperties" },
    items: { status: "compiled", types: array2, note: "items beyond `prefixItems` default to none (a tuple)" },
    prefixItems: {
      status: "compiled",
      types: array2,
      note: "a tuple; drafts 04-2019-09 array `items` and `additionalItems` are read as it"
    },
    additionalItems: { status: "compiled", types: array2, note: "with array `items` (drafts 04 to 2019-09)" },
    minItems: { status: "compiled", types: array2, note: "exact" },
    maxItems: { status: "compiled", types: array2, note: "exact" },
    minLength: {
      status: "compiled",
      types: string,
      note: "in code points, as ajv counts; intersected with patterns and formats by automaton"
    },
    maxLength: { status: "compiled", types: string, note: "as minLength" },
    pattern: {
      status: "compiled",
      types: string,
      note: "searched (unanchored) as JSON Schema requires; several patterns and formats are intersected by automaton"
    },
    format: {
      status: "compiled",
      types: string,
      note: "date, time, date-time, uuid, email, uri, ipv4, ipv6, hostname; others are validated or annotations"
    },
    minimum: {
      status: "compiled",
      types: number,
      note: "exact on integers and decimals (no exponent written when bounded)"
    },
    maximum: { status: "compiled", types: number, note: "as minimum" },
    exclusiveMinimum: { status: "compiled", types: number, note: "as minimum; draft-04 booleans understood" },
    exclusiveMaximum: { status: "compiled", types: number, note: "as minimum" },
    multipleOf: {
      status: "compiled",
      types: number,
      note: "on integers and decimal steps: a remainder automaton intersected with the range (multiples of at most 15 digits); a larger automaton is validated"
    },
    allOf: { status: "compiled", note: "intersected keyword by keyword; never concatenated" },
    anyOf: { status: "compiled", note: "each branch intersected with its siblings" },
    oneOf: { status: "validated", note: "the grammar accepts any branch; the validator checks that exactly one matches" },
    $ref: { status: "compiled", note: "one rule per target; JSON pointers, `$defs`/`definitions`, `$anchor`" },
    uniqueItems: { status: "validated", note: "uniqueness is not context-free" },
    not: { status: "validated", note: "negation is not expressible as a grammar" },
    contains: { status: "validated", note: "checked by the validator" },
    minContains: { status: "validated", note: "checked by the validator" },
    maxContains: { status: "validated", note: "checked by the validator" },
    dependentRequired: { status: "validated", note: "checked by the validator" },
    dependentSchemas: { status: "validated", note: "checked by the validator" },
    dependencies: { status: "validated", note: "checked by the validator" },
    if: { status: "validated", note: "conditionals are checked by the validator" },
    then: { status: "validated", note: "conditionals are checked by the validator" },
    else: { status: "validated", note: "conditionals are checked by the validator" },
    propertyNames: { status: "validated", note: "checked by the validator" },
    patternProperties: {
      status: "validated",
      note: "keys are generated from the patterns; a key that matches several patterns or also fits additionalProperties, or that repeats or spells a declared property, is checked by the validator"
    },
    unevaluatedProperties: { status: "validated", note: "checked by the validator" },
    unevaluatedItems: { status: "validated", note: "checked by the validator" },
    $dynamicRef: { status: "refused", note: "unsupported-keyword: use $ref" },
    $recursiveRef: { status: "refused", note: "unsupported-keyword: use $ref" }
  };
  var POLICY = new Map(Object.entries(KEYWORD_POLICY));
  function policyOf(keyword) {
    return POLICY.get(keyword);
  }
  function isConstraining(keyword) {
    return POLICY.has(keyword);
  }
  function hasConstraints(schema) {
    for (const keyword of Object.keys(schema)) if (POLICY.has(keyword)) return true;
    return false;
  }
  function validatedNote(keyword) {
    const policy = POLICY.get(keyword);
    return policy?.status === "validated" ? policy.note : void 0;
  }

  // src/grammar/ambiguity.ts
  var MAX_PARSES = 32;
  var MAX_ANALYZED_SIZE = 2e5;
  var MAX_EXPLORED = 256;
  var MAX_WALK = 512;
  function parsesAlive(expr, spend) {
    return parsesAliveIn({ rules: /* @__PURE__ */ new Map([["root", expr]]), root: "root" }, spend);
  }
  function parsesAliveIn(grammar, spend) {
    try {
      const automaton = new Automaton(grammar);
      const alive = (state2) => automaton.stacksOf(state2).length;
      let most = alive(automaton.initial);
      const seen = /* @__PURE__ */ new Set([automaton.initial]);
      const queue = [automaton.initial];
      for (let i = 0; i < queue.length && seen.size < MAX_EXPLORED && most <= MAX_PARSES; i++) {
        if (i % 16 === 0) spend(1 + Math.floor(automaton.classes / 64));
        for (let c = 0; c < automaton.classes && seen.size < MAX_EXPLORED; c++) {
          const next = automaton.step(queue[i], c);
          if (next === DEAD || seen.has(next)) continue;
          seen.add(next);
          queue.push(next);
          most = Math.max(most, alive(next));
        }
      }
      let state = automaton.initial;
      for (let k = 0; k < MAX_WALK && most <= MAX_PARSES; k++) {
        if (k % 16 === 0) spend(1 + Math.floor(automaton.classes / 64));
        let best = DEAD;
        for (let c = 0; c < automaton.classes; c++) {
          const next = automaton.step(state, c);
          if (next !== DEAD && (best === DEAD || alive(next) > alive(best))) best = next;
        }
        if (best === DEAD) break;
        state = best;
        most = Math.max(most, alive(state));
      }
      return most;
    } catch (error) {
      if (error instanceof AutomatonLimitError || error instanceof RangeError) return Infinity;
      throw error;
    }
  }
  function unambiguous(expr, what, builder, hint, budget, step, pointer) {
    if (!hasChoice(expr) || expandedSize(expr) > MAX_ANALYZED_SIZE) return expr;
    const alive = parsesAlive(expr, budget.spend);
    if (alive <= MAX_PARSES) return expr;
    const dfa = dfaOfExpr(expr, budget);
    const rules = dfa && !dfaIsEmpty(dfa) ? dfaRules(dfa, builder, hint, step) : void 0;
    if (rules) return rules;
    throw new ConstraintError(
      "too-large",
      `${what} is too ambiguous for llama.cpp's matcher (${alive === Infinity ? "thousands of" : `${alive}`} parses alive at once, above ${MAX_PARSES}) and its deterministic automaton is too large`,
      { pointer }
    );
  }
  function hasChoice(expr) {
    switch (expr.kind) {
      case "alt":
        return true;
      case "repeat":
        return expr.max !== expr.min || hasChoice(expr.body);
      case "seq":
        return expr.items.some(hasChoice);
      default:
        return false;
    }
  }

  // src/grammar/formats.ts
  var DATE_NOT_FEB_29 = String.raw`[0-9]{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))`;
  var DATE_FEB_29 = String.raw`(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:0[048]|[2468][048]|[13579][26])00)-02-29`;
  var DATE = `(?:${DATE_NOT_FEB_29}|${DATE_FEB_29})`;
  var TIME = String.raw`(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\.[0-9]+)?(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])`;
  var LABEL = String.raw`[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?`;
  var OCTET = String.raw`(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])`;
  var PCHAR = String.raw`(?:[a-zA-Z0-9._~!$&'()*+,;=:@-]|%[0-9a-fA-F]{2})`;
  var QCHAR = String.raw`(?:[a-zA-Z0-9._~!$&'()*+,;=:@/?-]|%[0-9a-fA-F]{2})`;
  var USERINFO = String.raw`(?:(?:[a-zA-Z0-9._~!$&'()*+,;=:-]|%[0-9a-fA-F]{2})*@)?`;
  var REG_NAME = String.raw`(?:[a-zA-Z0-9._~!$&'()*+,;=-]|%[0-9a-fA-F]{2})*`;
  var bothCases = (pattern) => pattern.replace(/a-z/g, "a-zA-Z").replace(/a-f/g, "a-fA-F");
  var FORMAT_PATTERNS = {
    date: { pattern: DATE, flags: "" },
    time: { pattern: TIME, flags: "" },
    "date-time": { pattern: `${DATE}T${TIME}`, flags: "" },
    uuid: { pattern: String.raw`[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}`, flags: "" },
    // ajv-formats' own email regex (it has no lookaround), anchors removed.
    email: {
      pattern: bothCases(
        String.raw`[a-z0-9!#$%&'*+/=?^_${"`"}{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_${"`"}{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?`
      ),
      flags: ""
    },
    // RFC 3986 URIs as ajv-formats' regex reads them (its alternatives, character sets and case
    // folding): scheme ":" then "//" authority and path, an absolute path, or a rootless path
    // (mailto:, urn:, file:///), then query and fragment. Only IP-literal hosts ([::1]) are left out.
    uri: {
      pattern: String.raw`[a-zA-Z][a-zA-Z0-9+.-]*:(?:/?/${USERINFO}${REG_NAME}(?::[0-9]*)?(?:/${PCHAR}*)*|/(?:${PCHAR}+(?:/${PCHAR}*)*)?|${PCHAR}+(?:/${PCHAR}*)*)(?:\?${QCHAR}*)?(?:#${QCHAR}*)?`,
      flags: ""
    },
    ipv4: { pattern: String.raw`${OCTET}(?:\.${OCTET}){3}`, flags: "" },
    // ajv-formats' own ipv6 regex, anchors removed.
    ipv6: {
      pattern: bothCases(
        String.raw`((([0-9a-f]{1,4}:){7}([0-9a-f]{1,4}|:))|(([0-9a-f]{1,4}:){6}(:[0-9a-f]{1,4}|((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})|:))|(([0-9a-f]{1,4}:){5}(((:[0-9a-f]{1,4}){1,2})|:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})|:))|(([0-9a-f]{1,4}:){4}(((:[0-9a-f]{1,4}){1,3})|((:[0-9a-f]{1,4})?:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){3}(((:[0-9a-f]{1,4}){1,4})|((:[0-9a-f]{1,4}){0,2}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){2}(((:[0-9a-f]{1,4}){1,5})|((:[0-9a-f]{1,4}){0,3}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){1}(((:[0-9a-f]{1,4}){1,6})|((:[0-9a-f]{1,4}){0,4}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(:(((:[0-9a-f]{1,4}){1,7})|((:[0-9a-f]{1,4}){0,5}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:)))`
      ),
      flags: ""
    },
    // At most three labels (<= 192 characters), which keeps ajv's 253-character limit without a lookahead.
    hostname: { pattern: `${LABEL}(?:\\.${LABEL}){0,2}\\.?`, flags: "" }
  };
  var VALIDATED_FORMATS = /* @__PURE__ */ new Set([
    "duration",
    "uri-reference",
    "uri-template",
    "url",
    "regex",
    "json-pointer",
    "json-pointer-uri-fragment",
    "relative-json-pointer",
    "byte",
    "password",
    "binary",
    "iso-time",
    "iso-date-time"
  ]);
  var NUMBER_FORMATS = /* @__PURE__ */ new Set(["int32", "int64", "float", "double"]);

  // src/grammar/numeric.ts
  var MAX_FRACTION_DIGITS = 16;
  function decimalOf(value) {
    const [mantissa, exponentText] = String(value).toLowerCase().split("e");
    const exponent = exponentText === void 0 ? 0 : Number(exponentText);
    const negative = mantissa.startsWith("-");
    const [whole, fraction2 = ""] = (negative ? mantissa.slice(1) : mantissa).split(".");
    let coefficient = BigInt(whole + fraction2);
    let scale = fraction2.length - exponent;
    if (scale < 0) {
      coefficient *= 10n ** BigInt(-scale);
      scale = 0;
    }
    return normalized2({ coefficient: negative ? -coefficient : coefficient, scale });
  }
  function normalized2(d) {
    let { coefficient, scale } = d;
    while (scale > 0 && coefficient % 10n === 0n) {
      coefficient /= 10n;
      scale--;
    }
    return { coefficient, scale };
  }
  var at = (d, s) => d.coefficient * 10n ** BigInt(s - d.scale);
  function compareDecimals(a, b) {
    const s = Math.max(a.scale, b.scale);
    const x = at(a, s);
    const y = at(b, s);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  function onGrid(d, s, up) {
    if (s >= d.scale) return at(d, s);
    const unit = 10n ** BigInt(d.scale - s);
    let q2 = d.coefficient / unit;
    const r = d.coefficient % unit;
    if (r !== 0n && r > 0n === up) q2 += up ? 1n : -1n;
    return q2;
  }
  function integerDigits(d) {
    const whole = (d.coefficient < 0n ? -d.coefficient : d.coefficient) / 10n ** BigInt(d.scale);
    return whole === 0n ? 0 : String(whole).length;
  }
  function decimalLcm(a, b) {
    const s = Math.max(a.scale, b.scale);
    const x = at(a, s);
    const y = at(b, s);
    let [p, q2] = [x, y];
    while (q2 !== 0n) [p, q2] = [q2, p % q2];
    return normalized2({ coefficient: x / p * y, scale: s });
  }
  function inclusiveBound(value, exclusive, lower) {
    const d = decimalOf(value);
    const s = exclusive ? Math.min(MAX_FRACTION_DIGITS, 15 - integerDigits(d)) : MAX_FRACTION_DIGITS;
    let q2 = onGrid(d, s, lower);
    if (exclusive && compareDecimals({ coefficient: q2, scale: Math.max(s, 0) }, d) === 0 && s >= 0) q2 += lower ? 1n : -1n;
    if (s >= 0) return normalized2({ coefficient: q2, scale: s });
    const exact = compareDecimals({ coefficient: q2 * 10n ** BigInt(-s), scale: 0 }, d) === 0;
    if (exclusive && exact) q2 += lower ? 1n : -1n;
    return { coefficient: q2 * 10n ** BigInt(-s), scale: 0 };
  }
  var DIGIT_CLASS = (lo, hi) => charClass([[48 + lo, 48 + hi]]);
  var ANY_DIGIT = DIGIT_CLASS(0, 9);
  function sameLengthRange(x, y) {
    if (x.length === 0) return EMPTY;
    if (x === y) return literal(x);
    const x0 = Number(x[0]);
    const y0 = Number(y[0]);
    const restLength = x.length - 1;
    const xRest = x.slice(1);
    const yRest = y.slice(1);
    if (x0 === y0) return seq(literal(x[0]), sameLengthRange(xRest, yRest));
    const anyDigits = repeat(ANY_DIGIT, restLength, restLength);
    const lowFull = /^0*$/.test(xRest);
    const highFull = /^9*$/.test(yRest);
    const options = [];
    if (!lowFull) options.push(seq(literal(x[0]), sameLengthRange(xRest, "9".repeat(restLength))));
    const middleLo = lowFull ? x0 : x0 + 1;
    const middleHi = highFull ? y0 : y0 - 1;
    if (middleLo <= middleHi)
      options.push(seq(middleLo === middleHi ? literal(String(middleLo)) : DIGIT_CLASS(middleLo, middleHi), anyDigits));
    if (!highFull) options.push(seq(literal(y[0]), sameLengthRange("0".repeat(restLength), yRest)));
    return altOf(options);
  }
  function naturalRange(lo, hi) {
    const options = [];
    const loLength = String(lo).length;
    const hiLength = String(hi).length;
    for (let length = loLength; length <= hiLength; length++) {
      const floor = length === 1 ? 0n : 10n ** BigInt(length - 1);
      const ceiling = 10n ** BigInt(length) - 1n;
      const a = lo > floor ? lo : floor;
      const b = hi < ceiling ? hi : ceiling;
      if (a <= b) options.push(sameLengthRange(String(a), String(b)));
    }
    return altOf(options);
  }
  function integerRangeExpr(lo, hi) {
    const options = [];
    if (lo < 0n) {
      const negHi = hi < -1n ? hi : -1n;
      options.push(seq(literal("-"), naturalRange(-negHi, -lo)));
    }
    if (hi >= 0n) options.push(naturalRange(lo > 0n ? lo : 0n, hi));
    return altOf(options);
  }
  var zeros = (x) => /^0*$/.test(x);
  var nines = (x) => /^9*$/.test(x);
  var anyOf = (f) => f.nonEmpty === null ? EMPTY : f.empty ? optional(f.nonEmpty) : f.nonEmpty;
  function fraction(x, y) {
    const n = x.length;
    if (n === 0) return { nonEmpty: null, empty: true };
    if (zeros(x) && nines(y)) return { nonEmpty: repeat(ANY_DIGIT, 1, n), empty: true };
    if (zeros(x) && zeros(y)) return { nonEmpty: repeat(literal("0"), 1, n), empty: true };
    const x0 = Number(x[0]);
    const y0 = Number(y[0]);
    const empty = zeros(x);
    if (x0 === y0) return { nonEmpty: seq(literal(x[0]), anyOf(fraction(x.slice(1), y.slice(1)))), empty };
    const rest = n - 1;
    const options = [];
    const lowFull = zeros(x.slice(1));
    const highFull = nines(y.slice(1));
    if (!lowFull) options.push(seq(literal(x[0]), anyOf(fraction(x.slice(1), "9".repeat(rest)))));
    const middleLo = lowFull ? x0 : x0 + 1;
    const middleHi = highFull ? y0 : y0 - 1;
    if (middleLo <= middleHi)
      options.push(
        seq(
          middleLo === middleHi ? literal(String(middleLo)) : DIGIT_CLASS(middleLo, middleHi),
          repeat(ANY_DIGIT, 0, rest)
        )
      );
    if (!highFull) options.push(seq(literal(y[0]), anyOf(fraction("0".repeat(rest), y.slice(1)))));
    return { nonEmpty: altOf(options), empty };
  }
  function fractionPart(f) {
    if (f.nonEmpty === null) return EMPTY;
    const written = seq(literal("."), f.nonEmpty);
    return f.empty ? optional(written) : written;
  }
  function split2(d, digits) {
    const unit = 10n ** BigInt(d.scale);
    const whole = d.coefficient / unit;
    const fractionDigits = String(d.coefficient % unit).padStart(d.scale, "0");
    return [whole, fractionDigits.padEnd(digits, "0").slice(0, digits)];
  }
  function nonNegativeRange(lo, hi, digits) {
    if (compareDecimals(lo, hi) > 0) return null;
    const [li, lf] = split2(lo, digits);
    const [hi_, hf] = split2(hi, digits);
    const all = "9".repeat(digits);
    const none = "0".repeat(digits);
    if (li === hi_) return seq(naturalRange(li, li), fractionPart(fraction(lf, hf)));
    const options = [];
    let from = li;
    let to = hi_;
    if (!zeros(lf)) {
      options.push(seq(naturalRange(li, li), fractionPart(fraction(lf, all))));
      from = li + 1n;
    }
    const fullTop = nines(hf);
    if (!fullTop) to = hi_ - 1n;
    if (from <= to) options.push(seq(naturalRange(from, to), fractionPart(fraction(none, all))));
    if (!fullTop) options.push(seq(naturalRange(hi_, hi_), fractionPart(fraction(none, hf))));
    return altOf(options);
  }
  function decimalRangeExpr(lo, hi, digits) {
    if (compareDecimals(lo, hi) > 0) return null;
    const neg = (d) => ({ coefficient: -d.coefficient, scale: d.scale });
    const zero = { coefficient: 0n, scale: 0 };
    const smallest = { coefficient: 1n, scale: digits };
    const options = [];
    if (lo.coefficient < 0n) {
      const top = compareDecimals(hi, neg(smallest)) < 0 ? hi : neg(smallest);
      const magnitudes = nonNegativeRange(neg(top), neg(lo), digits);
      if (magnitudes) options.push(seq(literal("-"), magnitudes));
    }
    if (hi.coefficient >= 0n) {
      const positive = nonNegativeRange(lo.coefficient > 0n ? lo : zero, hi, digits);
      if (positive) options.push(positive);
    }
    return options.length ? altOf(options) : null;
  }
  var NUMBER_CHARS = [45, 46, ...Array.from({ length: 10 }, (_, d) => 48 + d)];
  function multipleAutomaton(step) {
    const c = step.coefficient;
    const e = step.scale;
    const pow = (k) => 10n ** BigInt(k);
    return {
      start: { phase: "start", remainder: 0n, fractionDigits: 0 },
      key: (s) => `${s.phase}:${s.remainder}:${s.fractionDigits}`,
      next: (s, char) => {
        const digit2 = char >= 48 && char <= 57 ? BigInt(char - 48) : -1n;
        const grow = (phase, fractionDigits) => ({
          phase,
          remainder: (s.remainder * 10n + digit2) % c,
          fractionDigits
        });
        switch (s.phase) {
          case "start":
          case "sign":
            if (char === 45) return s.phase === "start" ? { ...s, phase: "sign" } : null;
            if (digit2 === 0n) return { ...s, phase: s.phase === "sign" ? "negative-zero" : "zero" };
            return digit2 > 0n ? grow("integer", 0) : null;
          case "zero":
          case "negative-zero":
          case "integer":
            if (char === 46) return e > 0 ? { ...s, phase: "dot" } : null;
            return s.phase === "integer" && digit2 >= 0n ? grow("integer", 0) : null;
          case "dot":
          case "fraction":
            return digit2 >= 0n && s.fractionDigits < e ? grow("fraction", s.fractionDigits + 1) : null;
        }
      },
      accepts: (s) => (s.phase === "zero" || s.phase === "integer" || s.phase === "fraction") && s.remainder * pow(e - s.fractionDigits) % c === 0n
    };
  }

  // src/grammar/schema-scalars.ts
  var isStep = (d) => d.coefficient > 0n;
  function stepOf(part, integer) {
    if (part.multipleOf.length === 0) return void 0;
    let step = integer ? { coefficient: 1n, scale: 0 } : void 0;
    for (const m of part.multipleOf) step = step ? decimalLcm(step, decimalOf(m.value)) : decimalOf(m.value);
    return step && isStep(step) && !(integer && step.coefficient === 1n && step.scale === 0) ? step : void 0;
  }
  function multipleLeftToValidator(part, why, ctx) {
    for (const m of part.multipleOf) ctx.approximate(m.pointer, "multipleOf", why);
  }
  function multiplesIn(range, step, pointer, hint, ctx) {
    const budget = ctx.dfaBudget(pointer);
    const rangeDfa = dfaOfExpr(range, budget);
    const automaton = multipleAutomaton(step);
    const multiples = dfaOfSteps(NUMBER_CHARS, automaton.start, automaton.key, automaton.next, automaton.accepts, budget);
    const both = rangeDfa && multiples && intersectDfas([rangeDfa, multiples], budget);
    if (!both) return void 0;
    if (dfaIsEmpty(both))
      return unsatisfiable("no multiple of multipleOf lies between the bounds", pointer, "multipleOf");
    return dfaRules(both, ctx.builder, `${hint}-multiple`, rangesExpr);
  }
  function integerExpr2(part, pointer, hint, ctx) {
    for (const f of part.formats)
      ctx.approximate(f.pointer, "format", `number format '${f.value}' is checked by the validator`);
    const { min, max } = part;
    const lower = min && (min.exclusive ? BigInt(Math.floor(min.value)) + 1n : BigInt(Math.ceil(min.value)));
    const upper = max && (max.exclusive ? BigInt(Math.ceil(max.value)) - 1n : BigInt(Math.floor(max.value)));
    const step = stepOf(part, true);
    if (lower === void 0 && upper === void 0 && !step) return ctx.json.integer();
    const digits = Math.max(
      DEFAULT_INTEGER_DIGITS,
      String(lower ?? 0n).replace("-", "").length,
      String(upper ?? 0n).replace("-", "").length
    );
    const cap = 10n ** BigInt(digits) - 1n;
    const lo = lower ?? -cap;
    const hi = upper ?? cap;
    if (lo > hi) return unsatisfiable(`no integer lies between ${lo} and ${hi}`, pointer, "minimum");
    const range = integerRangeExpr(lo, hi);
    if (step) {
      if (digits > DEFAULT_INTEGER_DIGITS)
        multipleLeftToValidator(part, "multiples beyond 15 digits are checked by the validator", ctx);
      else {
        const multiples = multiplesIn(range, step, pointer, hint, ctx);
        if (multiples) return multiples;
        multipleLeftToValidator(
          part,
          "the automaton of multiples in this range is too large; the validator checks multipleOf",
          ctx
        );
      }
    }
    if (lower === void 0 && upper === void 0) return ctx.json.integer();
    return ctx.builder.rule(`${hint}-int`, range);
  }
  function numberExpr2(part, pointer, hint, ctx) {
    for (const f of part.formats) {
      if (NUMBER_FORMATS.has(f.value))
        ctx.approximate(f.pointer, "format", `number format '${f.value}' is checked by the validator`);
      else unknownFormat(f.value, f.pointer, "a number", ctx);
    }
    const { min, max } = part;
    const step = stepOf(part, false);
    if (!min && !max && !step) return ctx.json.number();
    const lo = min && inclusiveBound(min.value, min.exclusive, true);
    const hi = max && inclusiveBound(max.value, max.exclusive, false);
    const whole = Math.max(DEFAULT_INTEGER_DIGITS, wholeDigits(lo), wholeDigits(hi));
    const from = lo ?? largest(whole, MAX_FRACTION_DIGITS, -1n);
    const to = hi ?? largest(whole, MAX_FRACTION_DIGITS, 1n);
    const range = decimalRangeExpr(from, to, MAX_FRACTION_DIGITS);
    if (!range)
      return unsatisfiable("no number with at most 16 fraction digits lies between the bounds", pointer, "minimum");
    if (step) {
      const digits = step.scale;
      const wholeCap = DEFAULT_INTEGER_DIGITS - digits;
      const low = largest(wholeCap, digits, -1n);
      const high = largest(wholeCap, digits, 1n);
      const a = lo ? onGrid2(lo, digits, true) : low;
      const b = hi ? onGrid2(hi, digits, false) : high;
      if (wholeCap < 1 || compareDecimals(a, high) > 0 || compareDecimals(b, low) < 0) {
        multipleLeftToValidator(part, "multiples of more than 15 digits are checked by the validator", ctx);
      } else {
        const multiplesRange = decimalRangeExpr(
          compareDecimals(a, low) < 0 ? low : a,
          compareDecimals(b, high) > 0 ? high : b,
          digits
        );
        if (!multiplesRange)
          return unsatisfiable("no multiple of multipleOf lies between the bounds", pointer, "multipleOf");
        const multiples = multiplesIn(multiplesRange, step, pointer, hint, ctx);
        if (multiples) return multiples;
        multipleLeftToValidator(
          part,
          "the automaton of multiples in this range is too large; the validator checks multipleOf",
          ctx
        );
      }
    }
    return ctx.builder.rule(`${hint}-number`, range);
  }
  var wholeDigits = (d) => {
    if (!d) return 0;
    const whole = (d.coefficient < 0n ? -d.coefficient : d.coefficient) / 10n ** BigInt(d.scale);
    return whole === 0n ? 0 : String(whole).length;
  };
  var largest = (whole, fraction2, sign) => ({
    coefficient: sign * (10n ** BigInt(whole + fraction2) - 1n),
    scale: fraction2
  });
  function onGrid2(d, digits, up) {
    if (d.scale <= digits) return d;
    const unit = 10n ** BigInt(d.scale - digits);
    let q2 = d.coefficient / unit;
    const r = d.coefficient % unit;
    if (r !== 0n && r > 0n === up) q2 += up ? 1n : -1n;
    return { coefficient: q2, scale: digits };
  }
  function unknownFormat(format, pointer, what, ctx) {
    if (ctx.strict) {
      throw new ConstraintError("unsupported-format", `unknown format '${format}' for ${what}`, {
        pointer: pointerChild(pointer, "format"),
        keyword: "format"
      });
    }
    ctx.approximate(
      pointer,
      "format",
      `unknown format '${format}' is an annotation: generated and validated as ${what} of any form`
    );
  }
  var formatExprs = /* @__PURE__ */ new Map();
  function formatExpr2(format) {
    let expr = formatExprs.get(format);
    if (!expr) {
      const known = FORMAT_PATTERNS[format];
      expr = regexToExpr(known.pattern, known.flags, { semantics: "full" });
      formatExprs.set(format, expr);
    }
    return expr;
  }
  function patternExpr2(pattern, pointer) {
    try {
      return regexToExpr(pattern, "", { semantics: "search" });
    } catch (error) {
      if (error instanceof ConstraintError) {
        throw new ConstraintError(error.code, `pattern: ${error.message}`, {
          pointer: pointerChild(pointer, "pattern"),
          position: error.position,
          keyword: error.keyword ?? "pattern"
        });
      }
      throw error;
    }
  }
  function singleClassWithin(expr, min, max) {
    if (expr.kind !== "repeat" || expr.body.kind !== "class") return void 0;
    const lo = Math.max(expr.min, min);
    const hi = expr.max === null ? max : max === null ? expr.max : Math.min(expr.max, max);
    return hi !== null && lo > hi ? void 0 : repeat(expr.body, lo, hi);
  }
  function stringExpr(part, pointer, hint, ctx) {
    const { minLength, maxLength } = part;
    if (minLength !== void 0 && maxLength !== void 0 && minLength > maxLength) {
      return unsatisfiable(`minLength ${minLength} exceeds maxLength ${maxLength}`, pointer, "minLength");
    }
    const quoted = (content2) => ctx.builder.rule(`${hint}-string`, seq(literal('"'), content2, literal('"')));
    const regexes = [];
    for (const f of part.formats) {
      if (Object.prototype.hasOwnProperty.call(FORMAT_PATTERNS, f.value))
        regexes.push({ keyword: "format", value: f.value, pointer: f.pointer, expr: formatExpr2(f.value) });
      else if (VALIDATED_FORMATS.has(f.value))
        ctx.approximate(
          f.pointer,
          "format",
          `format '${f.value}' is generated as a plain string and checked by the validator`
        );
      else unknownFormat(f.value, f.pointer, "a string", ctx);
    }
    const inexpressible = [];
    for (const p of part.patterns) {
      try {
        regexes.push({ keyword: "pattern", value: p.value, pointer: p.pointer, expr: patternExpr2(p.value, p.pointer) });
      } catch (error) {
        if (!(error instanceof ConstraintError) || error.code !== "unsupported-regex" && error.code !== "unsatisfiable")
          throw error;
        inexpressible.push(error);
        if (part.formats.length + part.patterns.length > 1) {
          ctx.approximate(
            p.pointer,
            "pattern",
            `the regex compiler cannot express this pattern (${error.message}); beside the string's other pattern or format, the validator checks it`
          );
        }
      }
    }
    if (inexpressible.length && part.formats.length + part.patterns.length === 1) throw inexpressible[0];
    const lengths = (minLength !== void 0 || maxLength !== void 0) && !regexes.some((r) => {
      const [least, most] = lengthBounds(r.expr);
      return least >= (minLength ?? 0) && (maxLength === void 0 || most !== null && most <= maxLength);
    });
    if (regexes.length === 0) {
      if (minLength === void 0 && maxLength === void 0) return ctx.json.string();
      return quoted(repeat(ctx.json.char(), minLength ?? 0, maxLength ?? null));
    }
    if (regexes.length === 1 && !lengths) return quoted(content(regexes[0], pointer, hint, ctx));
    if (regexes.length === 1) {
      const within2 = singleClassWithin(regexes[0].expr, minLength ?? 0, maxLength ?? null);
      if (within2) return quoted(toJsonStringContent(within2));
    }
    const budget = ctx.dfaBudget(pointer);
    const dfas = regexes.map((r) => dfaOfExpr(r.expr, budget));
    if (lengths) dfas.push(lengthDfa(GENERATABLE, minLength ?? 0, maxLength ?? null));
    const product = dfas.every((d) => d !== void 0) ? intersectDfas(dfas, budget) : void 0;
    if (product) {
      if (dfaIsEmpty(product)) {
        const what = regexes.map((r) => `${r.keyword} '${r.value}'`).join(" and ");
        return unsatisfiable(
          `no string satisfies ${what}${lengths ? " within minLength/maxLength" : ""}`,
          pointer,
          regexes[0].keyword
        );
      }
      const content2 = dfaRules(
        product,
        ctx.builder,
        `${hint}-string-part`,
        (ranges) => toJsonStringContent(rangesExpr(ranges))
      );
      if (content2) return quoted(content2);
    }
    const [kept, ...left] = regexes;
    const combined = `combined with ${kept.keyword} '${kept.value}'`;
    for (const r of left)
      ctx.approximate(
        r.pointer,
        r.keyword,
        `${combined}, the ${r.keyword} is checked by the validator (their intersection is too large)`
      );
    if (lengths && minLength !== void 0)
      ctx.approximate(pointer, "minLength", `${combined}, length is checked by the validator`);
    if (lengths && maxLength !== void 0)
      ctx.approximate(pointer, "maxLength", `${combined}, length is checked by the validator`);
    return quoted(content(kept, pointer, hint, ctx));
  }
  var formatContents = /* @__PURE__ */ new Map();
  function content(regex, pointer, hint, ctx) {
    if (regex.keyword === "format") {
      let written2 = formatContents.get(regex.value);
      if (!written2) formatContents.set(regex.value, written2 = toJsonStringContent(regex.expr));
      return written2;
    }
    const known = ctx.patternContents.get(regex.value);
    if (known) return known;
    const step = (ranges) => toJsonStringContent(rangesExpr(ranges));
    const expr = unambiguous(
      regex.expr,
      `pattern '${regex.value}'`,
      ctx.builder,
      `${hint}-string-part`,
      ctx.dfaBudget(pointer),
      step,
      regex.pointer
    );
    const written = expr === regex.expr ? toJsonStringContent(expr) : expr;
    ctx.patternContents.set(regex.value, written);
    return written;
  }

  // src/grammar/schema-emit.ts
  var MAX_ENUM_RECOGNITION_STEPS = 2e6;
  var MAX_DFA_STATES = 2e3;
  var isExpr = (value) => !isUnsatisfiable(value);
  var STRUCTURAL = /* @__PURE__ */ new Set(["properties", "$defs", "definitions", "allOf", "anyOf", "oneOf", "prefixItems"]);
  function hintFromPointer(pointer) {
    const tokens = [];
    let end = pointer.length;
    while (end > 0 && tokens.length < 2) {
      const start2 = pointer.lastIndexOf("/", end - 1);
      const token = pointer.slice(start2 + 1, end).replace(/~1/g, "/").replace(/~0/g, "~");
      if (!STRUCTURAL.has(token)) tokens.unshift(token);
      end = start2;
    }
    return tokens.join("-") || "schema";
  }
  function recognizeBounded(grammar, text3, budget) {
    try {
      return recognizeWithin(grammar, text3, budget);
    } catch (error) {
      if (error instanceof RangeError) return null;
      throw error;
    }
  }
  var Emitter = class {
    constructor(builder, json, parser, work, approximations, options) {
      __publicField(this, "builder", builder);
      __publicField(this, "json", json);
      __publicField(this, "parser", parser);
      __publicField(this, "work", work);
      __publicField(this, "approximations", approximations);
      __publicField(this, "options", options);
      /** Rules per referenced location and reading, or what the location came to (it matches nothing, or failed). */
      __publicField(this, "refRules", /* @__PURE__ */ new Map());
      /** Intersections being emitted, per reading: met again inside themselves, they become a rule. */
      __publicField(this, "merging", /* @__PURE__ */ new Map());
      __publicField(this, "patternMatcher", new PatternMatcher());
      __publicField(this, "patternContents", /* @__PURE__ */ new Map());
      __publicField(this, "extraKeys", /* @__PURE__ */ new Map());
      __publicField(this, "recognition", { steps: MAX_ENUM_RECOGNITION_STEPS });
      /** The specification's reading (judging enum values) rather than the model's. */
      __publicField(this, "specMode", false);
      __publicField(this, "intersect");
      this.intersect = {
        parser,
        work,
        maxBranches: options.maxBranches,
        maxDepth: options.maxDepth,
        patternMatches: (pattern, name, pointer) => this.patternMatch(pattern, name, pointer)
      };
    }
    get strict() {
      return this.options.strict;
    }
    get closedByDefault() {
      return !this.specMode && !this.options.openObjects;
    }
    approximate(pointer, keyword, note) {
      this.approximations.add(pointer, keyword, note);
    }
    spend(units, pointer) {
      this.work.spend(units, pointer);
    }
    dfaBudget(pointer) {
      return { maxStates: MAX_DFA_STATES, spend: (units) => this.work.spend(units, pointer) };
    }
    and(parts, pointer) {
      return this.parser.and(parts, pointer);
    }
    /** PatternMatcher.matches, its automaton's work counted in the compile work. */
    patternMatch(pattern, name, pointer) {
      return this.patternMatcher.matches(pattern, name, pointer, (units) => this.spend(units, pointer));
    }
    /** Work whose rules count toward the grammar's characters only if it is kept (GrammarBuilder.open/close). */
    tentative(work) {
      const mark = this.builder.open();
      let result;
      try {
        result = work();
        return result;
      } finally {
        this.builder.close(mark, result !== void 0);
      }
    }
    /** A part the value may leave out: compiled, or undefined when it matches nothing, so the rest stays usable. */
    optionalPart(schema, pointer, depth) {
      if (schema.kind === "unsatisfiable") return void 0;
      return this.tentative(() => {
        const emitted = this.emit(schema, pointer, depth);
        return isExpr(emitted) ? emitted : void 0;
      });
    }
    // -- dispatch --------------------------------------------------------------------------------
    emit(schema, pointer, depth) {
      if (depth > this.options.maxDepth)
        throw new ConstraintError("too-deep", `schema nesting exceeds the limit of ${this.options.maxDepth}`, {
          pointer
        });
      this.spend(schema.kind === "node" ? nodeSize(schema) : 1, pointer);
      switch (schema.kind) {
        case "any":
          return this.json.value();
        case "unsatisfiable":
          return schema;
        case "ref":
          return this.refExpr(schema, depth);
        case "union":
          return this.unionExpr(schema, pointer, depth);
        case "and":
          return this.mergedExpr(schema, pointer, depth);
        case "node":
          return this.nodeExpr(schema, pointer, depth);
      }
    }
    /** A rule per referenced location, so recursion and repeated references cost one rule. */
    refExpr(schema, depth) {
      const target = this.parser.target(schema.ref, schema.pointer);
      const key = this.specMode ? `spec:${target.pointer}` : target.pointer;
      const known = this.refRules.get(key);
      if (known instanceof ConstraintError) throw known;
      if (typeof known === "string") return ref(known);
      if (known) return known;
      const name = this.builder.reserve(hintFromPointer(target.pointer));
      this.refRules.set(key, name);
      let emitted;
      try {
        emitted = this.emit(target.schema, target.pointer, depth + 1);
      } catch (error) {
        if (error instanceof ConstraintError) this.refRules.set(key, error);
        throw error;
      }
      if (!isExpr(emitted)) {
        this.refRules.set(key, emitted);
        return emitted;
      }
      this.builder.define(name, emitted);
      return ref(name);
    }
    /**
     * An intersection, forced when reached. Met again while it is being emitted (a definition that
     * refers to itself through a two-part allOf: `allOf: [{$ref: "#/$defs/n"}, {required: [...]}]`),
     * it becomes a rule the inner use refers to, so recursion stays linear instead of being merged open
     * level after level until too deep. One that does not recur is emitted inline.
     */
    mergedExpr(schema, pointer, depth) {
      const key = `${this.specMode ? "spec:" : ""}${schema.id}`;
      const entry = this.merging.get(key);
      if (entry) {
        if (entry.failure instanceof ConstraintError) throw entry.failure;
        if (entry.failure) return entry.failure;
        entry.name ??= this.builder.reserve(hintFromPointer(pointer));
        return ref(entry.name);
      }
      const mine = {};
      this.merging.set(key, mine);
      try {
        const forced = force(schema.parts, pointer, depth, this.intersect);
        const emitted = this.emit(forced, pointer, forced.kind === "union" ? depth : depth + 1);
        if (!isExpr(emitted)) {
          mine.failure = emitted;
          return emitted;
        }
        if (mine.name === void 0) return emitted;
        this.builder.define(mine.name, emitted);
        return ref(mine.name);
      } catch (error) {
        if (error instanceof ConstraintError) mine.failure = error;
        throw error;
      } finally {
        if (mine.failure === void 0) this.merging.delete(key);
      }
    }
    unionExpr(schema, pointer, depth) {
      const { keyword, options } = schema;
      if (options.length > this.options.maxBranches) {
        throw new ConstraintError(
          "too-large",
          `${keyword} has ${options.length} branches, above the limit of ${this.options.maxBranches}`,
          { pointer, keyword }
        );
      }
      const exprs = [];
      let last;
      options.forEach((option, i) => {
        const expr = this.tentative(() => {
          const emitted = this.emit(
            option,
            pointerChild(pointerChild(pointer, keyword), i),
            option.kind === "and" ? depth : depth + 1
          );
          if (isExpr(emitted)) return emitted;
          last = emitted;
          return void 0;
        });
        if (expr) exprs.push(expr);
      });
      if (exprs.length === 0) return last ?? unsatisfiable(`no ${keyword} branch can match`, pointer);
      return factorAlternatives(
        exprs,
        (name) => this.builder.bodyOf(name),
        (body) => this.builder.rule(`${hintFromPointer(pointer)}-branch`, body)
      );
    }
    // -- nodes -----------------------------------------------------------------------------------
    nodeExpr(node, pointer, depth) {
      if (node.values !== void 0) return this.enumExpr(node, pointer, depth);
      const types = this.allowedTypes(node);
      const options = [];
      let first;
      for (const type of types) {
        if (type === "integer" && types.includes("number")) continue;
        const emitted = types.length === 1 ? this.typeExpr(type, node, pointer, depth) : this.tentative(() => this.typeExprOrUndefined(type, node, pointer, depth, (u) => first ??= u));
        if (emitted === void 0) continue;
        if (!isExpr(emitted)) return emitted;
        options.push(emitted);
      }
      if (options.length === 0) return first ?? unsatisfiable("no type can match", pointer, "type");
      return altOf(options);
    }
    typeExprOrUndefined(type, node, pointer, depth, failed) {
      const emitted = this.typeExpr(type, node, pointer, depth);
      if (isExpr(emitted)) return emitted;
      failed(emitted);
      return void 0;
    }
    allowedTypes(node) {
      if (node.types) return node.types;
      const any = TYPE_NAMES2.filter((t) => t !== "integer");
      if (this.specMode || node.mentions.size === 0) return any;
      return [...node.mentions];
    }
    typeExpr(type, node, pointer, depth) {
      const hint = hintFromPointer(pointer);
      const invalid2 = node.invalid?.[type === "integer" ? "number" : type];
      if (invalid2 && type !== "null" && type !== "boolean") throw invalid2;
      switch (type) {
        case "null":
          return literal("null");
        case "boolean":
          return this.json.boolean();
        // Errors and approximations name where the keywords are written (a lone allOf part's own pointer).
        case "integer":
          return integerExpr2(node.number, node.pointer, hint, this);
        case "number":
          return numberExpr2(node.number, node.pointer, hint, this);
        case "string":
          return stringExpr(node.string, node.pointer, hint, this);
        case "array":
          return this.arrayExpr(node, pointer, depth);
        case "object":
          return objectExpr(node.object, pointer, hint, depth, this);
      }
    }
    /** enum/const: the values the rest of the schema accepts, read as the specification reads it. */
    enumExpr(node, pointer, depth) {
      const texts = node.values;
      let allowed = texts;
      const valueTypes = /* @__PURE__ */ new Set();
      for (const text3 of texts) valueTypes.add(jsonTypeOfText(text3));
      const types = node.types ? node.types.filter((t) => valueTypes.has(t) || t === "integer" && valueTypes.has("number")) : [...valueTypes];
      if (types.length === 0)
        return unsatisfiable("no enum/const value satisfies the rest of the schema", pointer, "enum");
      const rest = { ...node, values: void 0, types };
      if (!unconstrained({ ...node, values: void 0 })) {
        let restExpr;
        let snapshot;
        let tooLarge = false;
        this.tentative(() => {
          const outer = this.specMode;
          this.specMode = true;
          try {
            restExpr = this.nodeExpr(rest, pointer, depth + 1);
          } catch (error) {
            if (!(error instanceof ConstraintError) || error.code !== "too-large") throw error;
            tooLarge = true;
          } finally {
            this.specMode = outer;
          }
          snapshot = restExpr && isExpr(restExpr) ? this.builder.snapshot(restExpr) : void 0;
          return void 0;
        });
        const note = "values too costly to check against the rest of the schema are kept; the validator checks them";
        if (tooLarge) this.approximate(pointer, "enum", note);
        else if (restExpr && !isExpr(restExpr)) return restExpr;
        else if (snapshot) {
          let unchecked = false;
          const judge = snapshot;
          allowed = texts.filter((text3) => {
            const accepted = this.recognition.steps > 0 ? recognizeBounded(judge, text3, this.recognition) : null;
            if (accepted === null) unchecked = true;
            return accepted !== false;
          });
          if (unchecked) this.approximate(pointer, "enum", note);
        } else
          this.approximate(
            pointer,
            "enum",
            "values are not filtered by the recursive rest of the schema; the validator checks them"
          );
      }
      if (allowed.length === 0)
        return unsatisfiable("no enum/const value satisfies the rest of the schema", pointer, "enum");
      return factorAlternatives(
        allowed.map(literal),
        () => void 0,
        (body) => this.builder.rule(`${hintFromPointer(pointer)}-enum`, body)
      );
    }
    // -- arrays ----------------------------------------------------------------------------------
    arrayExpr(node, pointer, depth) {
      const { array: array3 } = node;
      const minItems = array3.minItems ?? 0;
      const maxItems = array3.maxItems ?? null;
      if (maxItems !== null && minItems > maxItems)
        return unsatisfiable(`minItems ${minItems} exceeds maxItems ${maxItems}`, pointer, "minItems");
      const hint = hintFromPointer(pointer);
      const prefix = array3.prefix ?? [];
      const rest = array3.items !== void 0 ? array3.items : prefix.length && !this.specMode ? false : { kind: "any" };
      let restExpr = rest === false || prefix.some((p) => p.kind === "unsatisfiable") ? void 0 : this.optionalPart(rest, pointerChild(pointer, "items"), depth + 1);
      const prefixExprs = [];
      for (const [i, p] of prefix.entries()) {
        const expr = this.optionalPart(p, pointerChild(pointerChild(pointer, "prefixItems"), i), depth + 1);
        if (!expr) break;
        prefixExprs.push(expr);
      }
      if (prefixExprs.length < prefix.length) restExpr = void 0;
      const k = prefixExprs.length;
      const sep = (i) => i > 0 ? literal(",") : EMPTY;
      let tail;
      if (restExpr) {
        const needed = Math.max(0, minItems - k);
        const room = maxItems === null ? null : maxItems - k;
        if (room !== null && room < 0) tail = minItems <= k ? EMPTY : null;
        else if (k > 0) tail = repeat(seq(literal(","), restExpr), needed, room);
        else tail = listExpr(restExpr, needed, room);
      } else tail = minItems <= k ? EMPTY : null;
      for (let i = k - 1; i >= 0; i--) {
        const take2 = maxItems !== null && i + 1 > maxItems ? null : tail === null ? null : seq(sep(i), prefixExprs[i], tail);
        if (i >= minItems) tail = take2 ? optional(take2) : EMPTY;
        else tail = take2;
        if (tail !== null && tail !== EMPTY && i > 0 && i % NESTING_PER_RULE2 === 0)
          tail = this.builder.rule(`${hint}-from-${i}`, tail);
      }
      if (tail === null)
        return unsatisfiable("no array satisfies prefixItems/items with minItems/maxItems", pointer, "minItems");
      return this.builder.rule(`${hint}-array`, seq(literal("["), tail, literal("]")));
    }
  };
  function jsonTypeOfText(text3) {
    const c = text3[0];
    return c === '"' ? "string" : c === "{" ? "object" : c === "[" ? "array" : c === "n" ? "null" : c === "t" || c === "f" ? "boolean" : "number";
  }
  function nodeSize(node) {
    const patterns = node.string.patterns.reduce((sum, p) => sum + Math.ceil(p.value.length / 16), 0);
    return 1 + (node.values?.length ?? 0) + node.object.properties.size + patterns;
  }
  function unconstrained(node) {
    const { number: n, string: s, array: a, object: o } = node;
    return node.types === void 0 && node.mentions.size === 0 && !node.invalid && !n.min && !n.max && n.multipleOf.length === 0 && n.formats.length === 0 && s.minLength === void 0 && s.maxLength === void 0 && s.patterns.length === 0 && s.formats.length === 0 && !a.prefix && !a.items && a.minItems === void 0 && a.maxItems === void 0 && o.properties.size === 0 && o.required.length === 0 && o.patterns.length === 0 && !o.additional && o.minProperties === void 0 && o.maxProperties === void 0;
  }

  // src/grammar/schema-parse.ts
  var isObject2 = (value) => typeof value === "object" && value !== null && !Array.isArray(value);
  function invalid(message, pointer, keyword) {
    throw new ConstraintError("invalid-input", message, { pointer, keyword });
  }
  var Approximations = class {
    constructor() {
      __publicField(this, "list", []);
      __publicField(this, "keys", /* @__PURE__ */ new Set());
    }
    add(pointer, keyword, note) {
      const key = `${pointer}\0${keyword}`;
      if (this.keys.has(key)) return;
      this.keys.add(key);
      this.list.push({ pointer, keyword, note });
    }
  };
  function jsonText(value, pointer) {
    let text3;
    try {
      text3 = JSON.stringify(value);
    } catch (error) {
      invalid(`enum/const values must be JSON values (${error.message})`, pointer, "enum");
    }
    if (text3 === void 0) invalid("enum/const values must be JSON values", pointer, "enum");
    return text3;
  }
  function normalizeDraft(schema) {
    let out = schema;
    const edit = () => out === schema ? out = { ...schema } : out;
    if (Array.isArray(schema.items)) {
      edit().prefixItems = schema.items;
      if ("additionalItems" in schema) out.items = schema.additionalItems;
      else delete out.items;
      delete out.additionalItems;
    } else if ("additionalItems" in schema) delete edit().additionalItems;
    for (const [exclusive, bound] of [
      ["exclusiveMinimum", "minimum"],
      ["exclusiveMaximum", "maximum"]
    ]) {
      if (typeof schema[exclusive] !== "boolean") continue;
      edit();
      if (schema[exclusive] === true && typeof schema[bound] === "number") {
        out[exclusive] = schema[bound];
        delete out[bound];
      } else delete out[exclusive];
    }
    return out;
  }
  function objectSize(schema) {
    const enumSize = Array.isArray(schema.enum) ? schema.enum.length : 0;
    const patternSize = typeof schema.pattern === "string" ? Math.ceil(schema.pattern.length / 16) : 0;
    const propertiesSize = isObject2(schema.properties) ? Object.keys(schema.properties).length : 0;
    return 1 + enumSize + patternSize + propertiesSize;
  }
  var APPLICATORS = /* @__PURE__ */ new Set(["$ref", "allOf", "anyOf", "oneOf"]);
  var SchemaParser = class {
    constructor(refs, work, approximations, maxDepth) {
      __publicField(this, "refs", refs);
      __publicField(this, "work", work);
      __publicField(this, "approximations", approximations);
      __publicField(this, "maxDepth", maxDepth);
      __publicField(this, "parsed", /* @__PURE__ */ new Map());
      __publicField(this, "checked", /* @__PURE__ */ new Set());
      __publicField(this, "ands", /* @__PURE__ */ new Map());
      __publicField(this, "nextId", 1);
    }
    newId() {
      return this.nextId++;
    }
    /**
     * The intersection of parts, one object per list of parts (so a recursion through it is met again
     * as itself); a part that matches nothing is the answer, and parts that match anything drop out.
     */
    and(input, pointer) {
      const unsat = input.find((p) => p.kind === "unsatisfiable");
      if (unsat) return unsat;
      const parts = input.filter((p) => p.kind !== "any");
      if (parts.length === 0) return ANY;
      if (parts.length === 1) return parts[0];
      const key = parts.map((p) => p.id).join(",");
      let and = this.ands.get(key);
      if (!and) {
        and = { kind: "and", id: this.newId(), parts, pointer };
        this.ands.set(key, and);
      }
      return and;
    }
    /** The schema a `$ref` names, pre-walked like the rest (a reference may point anywhere, also under `not`). */
    target(reference, pointer) {
      const target = this.refs.resolve(reference, pointer);
      if (isObject2(target.schema) && !this.checked.has(target.schema)) this.check(target.schema, target.pointer, 0);
      return { schema: this.parse(target.schema, target.pointer), pointer: target.pointer };
    }
    // -- pre-walk --------------------------------------------------------------------------------
    /** Every keyword the grammar may look at gets its policy, or an error; the input's size is counted. */
    check(schema, pointer, depth) {
      if (depth > this.maxDepth)
        throw new ConstraintError("too-deep", `schema nesting exceeds the limit of ${this.maxDepth}`, { pointer });
      if (typeof schema === "boolean") return;
      if (!isObject2(schema)) invalid("a schema must be an object or a boolean", pointer);
      if (this.checked.has(schema)) return;
      this.checked.add(schema);
      this.work.grow(objectSize(schema));
      for (const keyword of Object.keys(schema)) {
        const note = validatedNote(keyword);
        if (note !== void 0) this.approximations.add(pointer, keyword, note);
        else if (policyOf(keyword)?.status === "refused") {
          throw new ConstraintError("unsupported-keyword", `${keyword} is not supported; use $ref`, {
            pointer: pointerChild(pointer, keyword),
            keyword
          });
        }
      }
      const child2 = (value, path) => this.check(value, path, depth + 1);
      for (const keyword of ["properties", "$defs", "definitions"]) {
        const map = schema[keyword];
        if (map === void 0) continue;
        if (!isObject2(map)) invalid(`${keyword} must be an object`, pointerChild(pointer, keyword), keyword);
        for (const [name, sub] of Object.entries(map)) child2(sub, pointerChild(pointerChild(pointer, keyword), name));
      }
      for (const keyword of ["allOf", "anyOf", "oneOf", "prefixItems"]) {
        const list = schema[keyword];
        if (list === void 0) continue;
        if (!Array.isArray(list) || list.length === 0 && keyword !== "prefixItems") {
          invalid(`${keyword} must be a non-empty array`, pointerChild(pointer, keyword), keyword);
        }
        list.forEach((sub, i) => child2(sub, pointerChild(pointerChild(pointer, keyword), i)));
      }
      if (Array.isArray(schema.items))
        schema.items.forEach((sub, i) => child2(sub, pointerChild(pointerChild(pointer, "items"), i)));
      else if (schema.items !== void 0) child2(schema.items, pointerChild(pointer, "items"));
      for (const keyword of ["additionalProperties", "additionalItems"]) {
        if (schema[keyword] !== void 0) child2(schema[keyword], pointerChild(pointer, keyword));
      }
      if (schema.required !== void 0 && (!Array.isArray(schema.required) || schema.required.some((r) => typeof r !== "string"))) {
        invalid("required must be an array of strings", pointerChild(pointer, "required"), "required");
      }
      if (schema.enum !== void 0 && !Array.isArray(schema.enum))
        invalid("enum must be an array", pointerChild(pointer, "enum"), "enum");
      if (schema.pattern !== void 0 && typeof schema.pattern !== "string")
        invalid("pattern must be a string", pointerChild(pointer, "pattern"), "pattern");
      if (schema.$ref !== void 0 && typeof schema.$ref !== "string")
        invalid("$ref must be a string", pointerChild(pointer, "$ref"), "$ref");
    }
    // -- parse -----------------------------------------------------------------------------------
    /** The typed schema of a schema object or boolean, once per object. */
    parse(raw2, pointer, depth = 0) {
      if (raw2 === true) return ANY;
      if (raw2 === false) return unsatisfiable("schema `false` matches nothing", pointer);
      if (!isObject2(raw2)) invalid("a schema must be an object or a boolean", pointer);
      const known = this.parsed.get(raw2);
      if (known) return known;
      if (depth > this.maxDepth)
        throw new ConstraintError("too-deep", `schema nesting exceeds the limit of ${this.maxDepth}`, { pointer });
      this.work.spend(objectSize(raw2), pointer);
      const schema = normalizeDraft(raw2);
      const result = hasConstraints(schema) ? this.parseObject(schema, pointer, depth) : ANY;
      this.parsed.set(raw2, result);
      return result;
    }
    parseObject(schema, pointer, depth) {
      const parts = [];
      const at3 = (keyword, i) => pointerChild(pointerChild(pointer, keyword), i);
      if (typeof schema.$ref === "string") parts.push({ kind: "ref", id: this.newId(), ref: schema.$ref, pointer });
      if (Array.isArray(schema.allOf)) {
        schema.allOf.forEach((part, i) => {
          const parsed = this.parse(part, at3("allOf", i), depth + 1);
          if (parsed.kind !== "any") parts.push(parsed);
        });
      }
      if (Object.keys(schema).some((k) => isConstraining(k) && !APPLICATORS.has(k)))
        parts.push(this.node(schema, pointer, depth));
      for (const keyword of ["anyOf", "oneOf"]) {
        const list = schema[keyword];
        if (!Array.isArray(list)) continue;
        const options = list.map((option, i) => this.parse(option, at3(keyword, i), depth + 1));
        parts.push({ kind: "union", id: this.newId(), keyword, options, pointer });
      }
      if (parts.length === 0) return ANY;
      return parts.length === 1 ? parts[0] : { kind: "and", id: this.newId(), parts, pointer };
    }
    /** The keywords of one object other than $ref and the combinators. */
    node(schema, pointer, depth) {
      const child2 = (value, path) => this.parse(value, path, depth + 1);
      const mentions = /* @__PURE__ */ new Set();
      for (const keyword of Object.keys(schema)) for (const type of policyOf(keyword)?.types ?? []) mentions.add(type);
      if (typeof schema.format === "string") mentions.add(NUMBER_FORMATS.has(schema.format) ? "number" : "string");
      const invalidParts = {};
      const deferred = (part, read) => {
        try {
          read();
        } catch (error) {
          if (!(error instanceof ConstraintError)) throw error;
          invalidParts[part] = error;
        }
      };
      let types;
      if (schema.type !== void 0) {
        const list = Array.isArray(schema.type) ? schema.type : [schema.type];
        if (list.length === 0) invalid("type must not be empty", pointerChild(pointer, "type"), "type");
        for (const type of list) {
          if (!TYPE_NAMES2.includes(type))
            invalid(`unknown type '${String(type)}'`, pointerChild(pointer, "type"), "type");
        }
        types = [...new Set(list)];
      }
      let values;
      if (schema.const !== void 0 || schema.enum !== void 0) {
        const constText = schema.const !== void 0 ? jsonText(schema.const, pointer) : void 0;
        const enumTexts = Array.isArray(schema.enum) ? schema.enum.map((v) => jsonText(v, pointer)) : void 0;
        const list = constText !== void 0 ? enumTexts === void 0 || enumTexts.includes(constText) ? [constText] : [] : enumTexts;
        values = [...new Set(list)];
      }
      let number2 = EMPTY_NUMBER;
      deferred("number", () => {
        const bound = (keyword) => {
          const value = schema[keyword];
          if (value === void 0) return void 0;
          if (typeof value !== "number" || !Number.isFinite(value))
            invalid(`${keyword} must be a number`, pointerChild(pointer, keyword), keyword);
          return value;
        };
        const tighter = (a, b, lower) => !a ? b : !b ? a : a.value === b.value ? a.exclusive ? a : b : a.value > b.value === lower ? a : b;
        const make = (keyword, exclusive) => {
          const value = bound(keyword);
          return value === void 0 ? void 0 : { value, exclusive, pointer };
        };
        const min = tighter(make("minimum", false), make("exclusiveMinimum", true), true);
        const max = tighter(make("maximum", false), make("exclusiveMaximum", true), false);
        const multipleOf = typeof schema.multipleOf === "number" ? [{ value: schema.multipleOf, pointer }] : [];
        const formats = typeof schema.format === "string" ? [{ value: schema.format, pointer }] : [];
        number2 = { min, max, multipleOf, formats };
      });
      let string2 = EMPTY_STRING;
      deferred("string", () => {
        const minLength = nonNegativeInteger(schema, "minLength", pointer);
        const maxLength = nonNegativeInteger(schema, "maxLength", pointer);
        const patterns = typeof schema.pattern === "string" ? [{ value: schema.pattern, pointer }] : [];
        const formats = typeof schema.format === "string" ? [{ value: schema.format, pointer }] : [];
        string2 = { minLength, maxLength, patterns, formats };
      });
      let array3 = EMPTY_ARRAY;
      deferred("array", () => {
        const minItems = nonNegativeInteger(schema, "minItems", pointer);
        const maxItems = nonNegativeInteger(schema, "maxItems", pointer);
        const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems.map((p, i) => child2(p, pointerChild(pointerChild(pointer, "prefixItems"), i))) : void 0;
        const items = schema.items !== void 0 ? child2(schema.items, pointerChild(pointer, "items")) : void 0;
        array3 = { prefix, items, minItems, maxItems };
      });
      let object2 = EMPTY_OBJECT;
      deferred("object", () => {
        const minProperties = nonNegativeInteger(schema, "minProperties", pointer);
        const maxProperties = nonNegativeInteger(schema, "maxProperties", pointer);
        const properties = /* @__PURE__ */ new Map();
        if (isObject2(schema.properties)) {
          for (const [name, sub] of Object.entries(schema.properties))
            properties.set(name, child2(sub, pointerChild(pointerChild(pointer, "properties"), name)));
        }
        const patterns = [];
        if (isObject2(schema.patternProperties)) {
          for (const [pattern, sub] of Object.entries(schema.patternProperties)) {
            const at3 = pointerChild(pointerChild(pointer, "patternProperties"), pattern);
            patterns.push({ patterns: [pattern], schema: child2(sub, at3), pointer: at3 });
          }
        }
        const required = Array.isArray(schema.required) ? [...new Set(schema.required)] : [];
        const additional = schema.additionalProperties !== void 0 ? child2(schema.additionalProperties, pointerChild(pointer, "additionalProperties")) : void 0;
        object2 = { properties, required, patterns, additional, minProperties, maxProperties };
      });
      const invalidEntries = Object.keys(invalidParts).length ? invalidParts : void 0;
      return {
        kind: "node",
        id: this.newId(),
        pointer,
        types,
        mentions,
        values,
        number: number2,
        string: string2,
        array: array3,
        object: object2,
        invalid: invalidEntries
      };
    }
  };
  function nonNegativeInteger(schema, keyword, pointer) {
    const value = schema[keyword];
    if (value === void 0) return void 0;
    if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
      invalid(`${keyword} must be a non-negative integer`, pointerChild(pointer, keyword), keyword);
    }
    return value;
  }

  // src/grammar/schema-refs.ts
  var isObject3 = (value) => typeof value === "object" && value !== null && !Array.isArray(value);
  var RefResolver = class {
    constructor(root, maxDepth) {
      __publicField(this, "root", root);
      __publicField(this, "maxDepth", maxDepth);
      __publicField(this, "resolved", /* @__PURE__ */ new Map());
    }
    /** The target of a reference written at `pointer`; unresolved-ref when it names nothing here. */
    resolve(reference, pointer) {
      let target = this.resolved.get(reference);
      if (!target) {
        target = this.locate(reference, pointer);
        this.resolved.set(reference, target);
      }
      return target;
    }
    locate(reference, pointer) {
      let fragment = reference;
      const rootId = isObject3(this.root) && typeof this.root.$id === "string" ? this.root.$id.replace(/#$/, "") : void 0;
      if (rootId && fragment.startsWith(rootId)) fragment = fragment.slice(rootId.length);
      if (!fragment.startsWith("#")) {
        throw new ConstraintError("unresolved-ref", `$ref '${reference}' is not local to this schema`, {
          pointer,
          keyword: "$ref"
        });
      }
      let body;
      try {
        body = decodeURIComponent(fragment.slice(1));
      } catch {
        throw new ConstraintError(
          "unresolved-ref",
          `$ref '${reference}' is not a valid URI fragment (bad percent-encoding)`,
          { pointer, keyword: "$ref" }
        );
      }
      if (body !== "" && !body.startsWith("/")) return this.anchor(body, reference, pointer);
      let target = this.root;
      const tokens = body === "" ? [] : body.split("/").slice(1).map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
      for (const token of tokens) {
        if (Array.isArray(target) && /^(0|[1-9][0-9]*)$/.test(token)) target = target[Number(token)];
        else if (isObject3(target) && Object.prototype.hasOwnProperty.call(target, token)) target = target[token];
        else target = void 0;
        if (target === void 0) break;
      }
      if (target === void 0 || !(typeof target === "boolean" || isObject3(target))) {
        throw new ConstraintError("unresolved-ref", `$ref '${reference}' points to nothing`, {
          pointer,
          keyword: "$ref"
        });
      }
      return { schema: target, pointer: body };
    }
    anchor(anchor, reference, pointer) {
      const seen = /* @__PURE__ */ new Set();
      const search2 = (node, at3, depth) => {
        if (depth > this.maxDepth || !isObject3(node) || seen.has(node)) return void 0;
        seen.add(node);
        if (node.$anchor === anchor || node.$id === "#" + anchor) return { schema: node, pointer: at3 };
        for (const [key, value] of Object.entries(node)) {
          if (!isObject3(value) && !Array.isArray(value)) continue;
          if (isObject3(value) && (key === "enum" || key === "const" || key === "default" || key === "examples")) continue;
          const direct = search2(value, pointerChild(at3, key), depth + 1);
          if (direct) return direct;
          const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
          for (const [k, v] of entries) {
            const found2 = search2(v, pointerChild(pointerChild(at3, key), k), depth + 2);
            if (found2) return found2;
          }
        }
        return void 0;
      };
      const found = search2(this.root, "", 0);
      if (!found)
        throw new ConstraintError("unresolved-ref", `$ref '${reference}' names no $anchor`, { pointer, keyword: "$ref" });
      return found;
    }
  };

  // src/grammar/work.ts
  var BASE_WORK = 1e5;
  var WORK_PER_INPUT_UNIT = 16;
  var MAX_WORK = 12e4;
  var WorkBudget = class {
    constructor() {
      __publicField(this, "spent", 0);
      __publicField(this, "size", 0);
    }
    /** Adds to the input's size (what the bound scales with). */
    grow(units) {
      this.size += units;
    }
    get used() {
      return this.spent;
    }
    get limit() {
      return Math.min(BASE_WORK + WORK_PER_INPUT_UNIT * this.size, MAX_WORK);
    }
    /** Counts work; past the bound, too-large naming where the compiler was. */
    spend(units, pointer) {
      this.spent += units;
      if (this.spent <= this.limit) return;
      const limit = this.limit;
      const bound = limit === MAX_WORK ? `the limit of ${MAX_WORK}` : `${WORK_PER_INPUT_UNIT} times its size`;
      throw new ConstraintError(
        "too-large",
        `compiling the schema takes more than ${limit} steps, ${bound}: anyOf/oneOf beside other keywords and allOf compile those keywords again for every branch, and nested unions multiply that`,
        { pointer }
      );
    }
  };

  // src/grammar/json-schema.ts
  var DEFAULT_MAX_BRANCHES = 256;
  function compileJsonSchemaToGrammar(input, options = {}) {
    if (typeof input !== "boolean" && !isObject2(input)) invalid("a JSON Schema must be an object or a boolean", "");
    refuseOversizedSchema(input, options.maxSchemaChars);
    const maxDepth = options.maxDepth ?? 64;
    const { schema, draft } = normalizeSchema(input, {
      strict: options.strict,
      annotations: options.annotations,
      maxDepth
    });
    const work = new WorkBudget();
    const approximations = new Approximations();
    const parser = new SchemaParser(new RefResolver(schema, maxDepth), work, approximations, maxDepth);
    parser.check(schema, "", 0);
    const builder = new GrammarBuilder({ ...DEFAULT_LIMITS, ...options.limits });
    builder.spend = (units) => work.spend(units, "");
    const emitter = new Emitter(builder, new JsonRules(builder), parser, work, approximations, {
      maxDepth,
      maxBranches: options.maxBranches ?? DEFAULT_MAX_BRANCHES,
      openObjects: options.additionalProperties ?? false,
      strict: options.strict ?? false
    });
    const root = emitter.emit(parser.parse(schema, ""), "", 0);
    if (isUnsatisfiable(root))
      throw new ConstraintError("unsatisfiable", root.reason, { pointer: root.pointer, keyword: root.keyword });
    const grammar = builder.build(root);
    checkGrammar(grammar);
    return { grammar, approximations: approximations.list, draft, normalized: schema };
  }

  // src/grammar/types.ts
  var ALIASES = new Map(
    Object.entries({
      integer: "integer",
      int: "integer",
      number: "number",
      float: "number",
      double: "number",
      boolean: "boolean",
      bool: "boolean",
      string: "string",
      str: "string"
    })
  );

  // src/grammar/validator.ts
  var import__ = __toESM(require__(), 1);
  var ajvFormatTable = __toESM(require_formats(), 1);

  // src/grammar/shared-subschemas.ts
  var isObject4 = (value) => typeof value === "object" && value !== null && !Array.isArray(value);
  var MIN_SHARED_CHARS = 200;
  var SCHEMA_VALUES2 = /* @__PURE__ */ new Set([
    "additionalProperties",
    "items",
    "contains",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contentSchema"
  ]);
  var SCHEMA_MAPS2 = /* @__PURE__ */ new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
  var SCHEMA_LISTS2 = /* @__PURE__ */ new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
  var child = (pointer, token) => `${pointer}/${String(token).replace(/~/g, "~0").replace(/\//g, "~1")}`;
  function mapSubschemas(node, pointer, visit) {
    const out = {};
    for (const [keyword, value] of Object.entries(node)) {
      const at3 = child(pointer, keyword);
      if (SCHEMA_VALUES2.has(keyword)) out[keyword] = visit(value, at3);
      else if (SCHEMA_MAPS2.has(keyword) && isObject4(value)) {
        const map = {};
        for (const [name, sub] of Object.entries(value)) map[name] = visit(sub, child(at3, name));
        out[keyword] = map;
      } else if (SCHEMA_LISTS2.has(keyword) && Array.isArray(value))
        out[keyword] = value.map((sub, i) => visit(sub, child(at3, i)));
      else out[keyword] = value;
    }
    return out;
  }
  function shareRepeatedSubschemas(schema) {
    if (!isObject4(schema)) return schema;
    const texts = /* @__PURE__ */ new WeakMap();
    const textOf = (value) => {
      if (typeof value !== "object" || value === null) return JSON.stringify(value) ?? "null";
      const known = texts.get(value);
      if (known !== void 0) return known;
      const text3 = Array.isArray(value) ? `[${value.map(textOf).join(",")}]` : `{${Object.keys(value).map((k) => `${JSON.stringify(k)}:${textOf(value[k])}`).join(",")}}`;
      texts.set(value, text3);
      return text3;
    };
    const counts = /* @__PURE__ */ new Map();
    const refs = [];
    const pending = [schema];
    while (pending.length) {
      const value = pending.pop();
      if (Array.isArray(value)) pending.push(...value);
      else if (isObject4(value)) {
        if (typeof value.$ref === "string") refs.push(value.$ref);
        pending.push(...Object.values(value));
      }
    }
    const named = (text3) => /"\$(id|anchor|dynamicAnchor)":/.test(text3);
    const count = (node, pointer, top) => {
      if (!isObject4(node)) return;
      mapSubschemas(node, pointer, (sub, at3) => {
        count(sub, at3, false);
        return sub;
      });
      if (top) return;
      const text3 = textOf(node);
      if (text3.length >= MIN_SHARED_CHARS && !named(text3)) counts.set(text3, (counts.get(text3) ?? 0) + 1);
    };
    count(schema, "", true);
    if (![...counts.values()].some((n) => n > 1)) return schema;
    const targets = refs.filter((ref2) => ref2.startsWith("#/")).map((ref2) => safeDecode(ref2.slice(1)));
    const onRefPath = (pointer) => targets.some((t) => t === pointer || t.startsWith(pointer + "/"));
    let prefix = "__svc_shared_";
    while (isObject4(schema.$defs) && Object.keys(schema.$defs).some((k) => k.startsWith(prefix))) prefix += "_";
    const names = /* @__PURE__ */ new Map();
    const defs = {};
    const rewrite = (node, pointer, top) => {
      if (!isObject4(node)) return node;
      if (!top && !onRefPath(pointer)) {
        const text3 = textOf(node);
        if ((counts.get(text3) ?? 0) > 1) {
          let name = names.get(text3);
          if (name === void 0) {
            name = `${prefix}${names.size}`;
            names.set(text3, name);
            defs[name] = mapSubschemas(node, pointer, (sub, at3) => rewrite(sub, at3, false));
          }
          return { $ref: `#/$defs/${name}` };
        }
      }
      return mapSubschemas(node, pointer, (sub, at3) => rewrite(sub, at3, false));
    };
    const root = rewrite(schema, "", true);
    root.$defs = { ...isObject4(root.$defs) ? root.$defs : {}, ...defs };
    return root;
  }
  function safeDecode(pointer) {
    try {
      return decodeURIComponent(pointer);
    } catch {
      return pointer;
    }
  }

  // src/grammar/validator.ts
  var unwrap = (module) => module.default ?? module;
  var Ajv2020 = unwrap(import__.default);
  var fullFormats2 = ajvFormatTable.fullFormats ?? unwrap(ajvFormatTable).fullFormats;
  function addFormats(ajv) {
    for (const [name, format] of Object.entries(fullFormats2)) ajv.addFormat(name, format);
  }
  function isMultipleOf(value, step) {
    if (!Number.isFinite(value) || !Number.isFinite(step) || step <= 0) return false;
    const v = decimalOf(value);
    const m = decimalOf(step);
    const scale = Math.max(v.scale, m.scale);
    const at3 = (d) => d.coefficient * 10n ** BigInt(scale - d.scale);
    return at3(v) % at3(m) === 0n;
  }
  function exactMultipleOf(ajv) {
    ajv.removeKeyword("multipleOf");
    const validate = (step, value) => {
      const ok = isMultipleOf(value, step);
      validate.errors = ok ? null : [{ keyword: "multipleOf", message: `must be multiple of ${step}`, params: { multipleOf: step } }];
      return ok;
    };
    validate.errors = null;
    ajv.addKeyword({ keyword: "multipleOf", type: "number", schemaType: "number", errors: true, validate });
  }
  function patternRegExp(pattern, flags) {
    try {
      return new RegExp(pattern, flags);
    } catch (error) {
      if (!flags.includes("u")) throw error;
      return new RegExp(pattern, flags.replace("u", ""));
    }
  }
  patternRegExp.code = "new RegExp";
  var AJV_OPTIONS = {
    strict: false,
    allErrors: true,
    validateFormats: true,
    // Properties named like Object.prototype members (`constructor`, `toString`) are absent unless
    // the instance has them itself: without this ajv saw `{}` as having a function `constructor`.
    ownProperties: true,
    // The compiler checked every keyword it relies on; a meta-schema check adds only ways to throw.
    validateSchema: false,
    // Unknown formats and keywords are annotations (drafts.ts); ajv would warn on the console.
    logger: false,
    code: { regExp: patternRegExp }
  };
  function createSchemaValidator(schema) {
    let check;
    return (text3) => {
      let value;
      try {
        value = JSON.parse(text3);
      } catch (error) {
        return {
          ok: false,
          error: new ConstraintError("validation-failed", `output is not JSON: ${error.message}`)
        };
      }
      if (!check) {
        try {
          const ajv = new Ajv2020(AJV_OPTIONS);
          addFormats(ajv);
          exactMultipleOf(ajv);
          check = ajv.compile(shareRepeatedSubschemas(schema));
        } catch (error) {
          return {
            ok: false,
            error: new ConstraintError(
              "validation-failed",
              `the schema cannot be checked by the validator: ${error.message}`
            )
          };
        }
      }
      let valid;
      try {
        valid = check(value);
      } catch (error) {
        const reason = error instanceof RangeError ? "the output nests too deeply to validate" : `the validator failed: ${error.message}`;
        return { ok: false, error: new ConstraintError("validation-failed", reason) };
      }
      if (valid) return { ok: true, value };
      const errors = check.errors ?? [];
      const first = errors[0];
      const summary = errors.slice(0, 5).map((e) => `${e.instancePath || "(root)"} ${e.message ?? e.keyword}`).join("; ");
      return {
        ok: false,
        error: new ConstraintError("validation-failed", `output does not satisfy the schema: ${summary}`, {
          pointer: first?.instancePath ?? "",
          keyword: first?.keyword,
          details: errors
        })
      };
    };
  }

  // src/grammar/index.ts
  var REGEX_DFA_BUDGET = { maxStates: 2e3, spend: () => {
  } };
  function guarded(compile) {
    try {
      return compile();
    } catch (error) {
      if (error instanceof RangeError) {
        if (/call stack/i.test(error.message))
          throw new ConstraintError("too-deep", "the constraint nests too deeply to compile (the stack ran out)");
        if (/invalid (string|array|typed array) length/i.test(error.message))
          throw new ConstraintError("too-large", "the constraint is too large to compile");
      }
      throw error;
    }
  }
  function finish(grammar, options = {}) {
    const limits = { ...DEFAULT_LIMITS, ...options.limits };
    checkGrammar(grammar);
    checkExpandedSize(grammar, limits);
    const gbnf = formatGrammar(grammar);
    checkGrammarChars(gbnf, limits);
    return { gbnf, grammar: parseGbnf(gbnf) };
  }
  function compileJsonSchema(schema, options = {}) {
    const { compiled: compiled2, approximations, draft, normalized: normalized3 } = guarded(() => {
      const { grammar, approximations: approximations2, draft: draft2, normalized: normalized4 } = compileJsonSchemaToGrammar(schema, options);
      return { compiled: finish(grammar, options), approximations: approximations2, draft: draft2, normalized: normalized4 };
    });
    const validate = createSchemaValidator(normalized3);
    return {
      ...compiled2,
      approximations,
      draft,
      validate,
      parse(text3) {
        const result = validate(text3);
        if (!result.ok) throw result.error;
        return result.value;
      }
    };
  }
  function compileRegex(pattern, flags = "", options = {}) {
    return guarded(() => {
      const builder = new GrammarBuilder();
      const expr = unambiguous(
        regexToExpr(pattern, flags, { semantics: "full" }),
        "the regex",
        builder,
        "regex",
        REGEX_DFA_BUDGET,
        rangesExpr
      );
      return finish(builder.build(expr), options);
    });
  }
  function compileChoices(choices, options = {}) {
    const maxGrammarChars = options.limits?.maxGrammarChars ?? DEFAULT_LIMITS.maxGrammarChars;
    return guarded(() => ({
      ...finish(choicesToGrammar(choices, maxGrammarChars), options),
      choices: [...checkChoices(choices)]
    }));
  }

  // src/extension/constraints.ts
  var compiled = /* @__PURE__ */ new Map();
  var COMPILED_KEPT = 32;
  function memoized(key, compile) {
    const hit = compiled.get(key);
    if (hit !== void 0) {
      compiled.delete(key);
      compiled.set(key, hit);
      return hit;
    }
    const gbnf = compile();
    if (compiled.size >= COMPILED_KEPT) compiled.delete(compiled.keys().next().value);
    compiled.set(key, gbnf);
    return gbnf;
  }
  function asParameterError(fn, parameter, error) {
    if (error instanceof ConstraintError) {
      throw parameterError(fn, parameter, `is not a usable constraint: ${error.message}`, { detail: `constraint error code: ${error.code}` });
    }
    throw error;
  }
  function schemaGrammar(fn, schema, how) {
    if (schema === null || schema === void 0) throw parameterError(fn, "schema", "must not be NULL", {}, SQLSTATE.null_value_not_allowed);
    try {
      return memoized(
        `schema\0${how.strict}\0${how.openObjects}\0${JSON.stringify(schema)}`,
        () => compileJsonSchema(schema, { strict: how.strict, additionalProperties: how.openObjects }).gbnf
      );
    } catch (error) {
      return asParameterError(fn, "schema", error);
    }
  }
  function regexGrammar(fn, pattern) {
    try {
      return memoized(`regex\0${pattern}`, () => compileRegex(pattern).gbnf);
    } catch (error) {
      return asParameterError(fn, "pattern", error);
    }
  }
  function choicesGrammar(fn, choices) {
    try {
      return memoized(`choices\0${JSON.stringify(choices)}`, () => compileChoices(choices).gbnf);
    } catch (error) {
      return asParameterError(fn, "choices", error);
    }
  }

  // src/queue/recorded-schema.ts
  var recordSchemaText = (schema) => JSON.stringify(schema);

  // src/queue/embed-many.ts
  var EMBED_MANY_MAX_TEXTS = 64;
  var EMBED_MANY_MAX_CHARS = 16384;
  function embedManyParameters(requests) {
    const { text_input: _first, ...rest } = requests[0];
    return { texts: requests.map((r) => r.text_input), ...rest };
  }
  function readEmbedManyResult(result) {
    return JSON.parse(result);
  }

  // src/queue/generate-many.ts
  var GENERATE_MANY_FUNCTIONS = ["generate", "generate_json", "generate_regex", "generate_choice"];
  var isGenerateManyFunction = (name) => GENERATE_MANY_FUNCTIONS.includes(name);
  var GENERATE_MANY_MAX_PROMPTS = 64;
  var GENERATE_MANY_MAX_CHARS = EMBED_MANY_MAX_CHARS;
  var GENERATE_MANY_MAX_TOKENS = 512;
  function utf8Bytes(text3) {
    let n = 0;
    for (const char of text3) {
      const cp = char.codePointAt(0);
      n += cp < 128 ? 1 : cp < 2048 ? 2 : cp < 65536 ? 3 : 4;
    }
    return n;
  }
  function promptTokens(functionName, parameters) {
    const maxTokens2 = Number(parameters.max_tokens);
    if (functionName !== "generate_choice" || !Array.isArray(parameters.choices)) return maxTokens2;
    const longest = Math.max(0, ...parameters.choices.map(utf8Bytes));
    return Math.min(maxTokens2, longest + 1);
  }
  function promptsPerRequest(functionName, parameters) {
    const tokens = promptTokens(functionName, parameters);
    return Math.max(1, Math.min(GENERATE_MANY_MAX_PROMPTS, Math.floor(GENERATE_MANY_MAX_TOKENS / tokens)));
  }
  function generateManyParameters(functionName, requests) {
    const { prompt: _first, ...rest } = requests[0];
    return { function: functionName, prompts: requests.map((r) => r.prompt), ...rest };
  }
  var readGenerateManyResult = (result) => JSON.parse(result);

  // src/extension/jobs.ts
  function modelParameters(fn, family, recorded) {
    const name = requestModel(fn, family, recorded);
    return name === "default" ? {} : { model: name };
  }
  var generationArgs = ([maxTokens2, useCache, seed2, temperature, topK2, topP, minP, stop]) => ({
    maxTokens: maxTokens2,
    useCache,
    seed: seed2,
    temperature,
    topK: topK2,
    topP,
    minP,
    stop
  });
  function decodingOptions(fn, args) {
    const sampling2 = sampling(fn, { temperature: args.temperature, topK: args.topK, topP: args.topP, minP: args.minP });
    const stop = stopStrings(fn, "stop", args.stop);
    return { ...recordedSampling(sampling2), ...stop.length > 0 ? { stop } : {} };
  }
  function generationOptions(fn, args, prompt, model) {
    const options = { max_tokens: maxTokens(fn, args.maxTokens), use_cache: boolean(fn, "use_cache", args.useCache), seed: seed(fn, args.seed) };
    return { ...options, ...decodingOptions(fn, args), ...prompt ?? promptSettings(), ...modelParameters(fn, "generate", model) };
  }
  function prepareGenerate(fn, prompt, args, format, model) {
    const parameters = { prompt: text(fn, "prompt", prompt), ...generationOptions(fn, args, format, model) };
    return { functionName: "generate", parameters, grammar: null };
  }
  function prepareEmbed(fn, textInput, useCache, model) {
    const parameters = { text_input: text(fn, "text_input", textInput), use_cache: boolean(fn, "use_cache", useCache), ...modelParameters(fn, "embed", model) };
    return { functionName: "embed", parameters, grammar: null };
  }
  function inputsOfMany(fn, name, values, maxItems, maxChars, one2) {
    const checked = textArray(fn, name, values, { maxItems });
    if (checked.length === 0) throw parameterError(fn, name, "must not be empty");
    if (checked.length > 1 && checked.reduce((n, t) => n + t.length, 0) > maxChars)
      throw parameterError(fn, name, `must hold at most ${maxChars} characters in all, or be one ${one2}`, {}, SQLSTATE.program_limit_exceeded);
    return checked;
  }
  function prepareEmbedMany(fn, texts, useCache, model) {
    const checked = inputsOfMany(fn, "texts", texts, EMBED_MANY_MAX_TEXTS, EMBED_MANY_MAX_CHARS, "text");
    const parameters = { texts: checked, use_cache: boolean(fn, "use_cache", useCache), ...modelParameters(fn, "embed", model) };
    return { functionName: "embed_many", parameters, grammar: null };
  }
  function prepareGenerateMany(fn, p) {
    const { function: functionName, prompts, ...rest } = p;
    if (!isGenerateManyFunction(functionName)) throw parameterError(fn, "function", `must be one of ${GENERATE_MANY_FUNCTIONS.join(", ")}`);
    const checked = inputsOfMany(fn, "prompts", prompts, GENERATE_MANY_MAX_PROMPTS, GENERATE_MANY_MAX_CHARS, "prompt");
    if ("stream" in rest) throw parameterError(fn, "stream", "is not a parameter of a request of many prompts");
    const first = prepareFromParameters(fn, functionName, { ...rest, prompt: checked[0] });
    if (checked.length > 1 && checked.length * promptTokens(functionName, first.parameters) > GENERATE_MANY_MAX_TOKENS)
      throw parameterError(fn, "prompts", `must decode at most ${GENERATE_MANY_MAX_TOKENS} tokens in all (prompts \xD7 max_tokens, or the longest choice's bytes + 1), or be one prompt`, {}, SQLSTATE.program_limit_exceeded);
    const parameters = generateManyParameters(functionName, checked.map((prompt) => ({ ...first.parameters, prompt })));
    return { functionName: "generate_many", parameters, grammar: first.grammar };
  }
  function prepareJson(fn, prompt, schema, args, format, compile, model) {
    const checkedPrompt = text(fn, "prompt", prompt);
    const options = generationOptions(fn, args, format, model);
    const { value, recorded } = schemaArgument(fn, schema);
    const how = compile ?? schemaSettings();
    const parameters = { prompt: checkedPrompt, schema: recorded, ...options, ...how.strict ? { strict_schema: true } : {}, ...how.openObjects ? { open_objects: true } : {} };
    return { functionName: "generate_json", parameters, grammar: schemaGrammar(fn, value, how) };
  }
  var SchemaText = class {
    constructor(text3) {
      __publicField(this, "text", text3);
    }
  };
  function schemaArgument(fn, schema) {
    if (!(schema instanceof SchemaText)) {
      jsonNesting(fn, "schema", schema, LIMITS.schemaMaxNesting);
      return { value: schema, recorded: schema };
    }
    const text3 = text(fn, "schema", schema.text);
    let value;
    try {
      value = JSON.parse(text3);
    } catch (error) {
      throw parameterError(fn, "schema", `must be JSON text: ${error instanceof Error ? error.message : String(error)}`, {}, SQLSTATE.invalid_text_representation);
    }
    jsonNesting(fn, "schema", value, LIMITS.schemaMaxNesting);
    return { value, recorded: recordSchemaText(value) };
  }
  function prepareRegex(fn, prompt, pattern, args, format, model) {
    const checkedPrompt = text(fn, "prompt", prompt);
    const checkedPattern = text(fn, "pattern", pattern, { maxChars: 1e5 });
    const options = generationOptions(fn, args, format, model);
    return { functionName: "generate_regex", parameters: { prompt: checkedPrompt, pattern: checkedPattern, ...options }, grammar: regexGrammar(fn, checkedPattern) };
  }
  function prepareChoice(fn, prompt, choices, args, format, model) {
    const checkedPrompt = text(fn, "prompt", prompt);
    const checkedChoices = textArray(fn, "choices", choices, { maxItems: LIMITS.choicesMaxItems });
    const options = generationOptions(fn, args, format, model);
    return { functionName: "generate_choice", parameters: { prompt: checkedPrompt, choices: checkedChoices, ...options }, grammar: choicesGrammar(fn, checkedChoices) };
  }
  function prepareRerank(fn, query, documents, task, useCache, seed2, model) {
    const parameters = {
      query: text(fn, "query", query),
      // Each document like the query: empty or whitespace-only text has no meaningful embedding (an
      // empty one none at all: its score was NaN and the order undefined).
      documents: textArray(fn, "documents", documents, { maxItems: LIMITS.rerankMaxDocuments }),
      task: text(fn, "task", task),
      use_cache: boolean(fn, "use_cache", useCache),
      seed: seed(fn, seed2),
      ...modelParameters(fn, "rerank", model)
    };
    return { functionName: "rerank", parameters, grammar: null };
  }
  function prepareFromParameters(fn, functionName, parameters) {
    if (parameters === null || typeof parameters !== "object" || Array.isArray(parameters)) throw parameterError(fn, "parameters", "must be a JSON object");
    const p = parameters;
    const format = () => promptParameters(fn, p.prompt_format, p.system_prompt);
    const model = recordedModel(fn, p.model);
    const args = { maxTokens: p.max_tokens, useCache: p.use_cache, seed: p.seed, temperature: p.temperature, topK: p.top_k, topP: p.top_p, minP: p.min_p, stop: p.stop };
    switch (functionName) {
      case "generate": {
        const job = prepareGenerate(fn, p.prompt, args, format(), model);
        return flagParameter(fn, "stream", p.stream) ? { ...job, parameters: { ...job.parameters, stream: true } } : job;
      }
      case "embed":
        return prepareEmbed(fn, p.text_input, p.use_cache, model);
      case "embed_many":
        return prepareEmbedMany(fn, p.texts, p.use_cache, model);
      case "generate_many":
        return prepareGenerateMany(fn, p);
      case "generate_json":
        return prepareJson(fn, p.prompt, typeof p.schema === "string" ? new SchemaText(p.schema) : p.schema, args, format(), { strict: flagParameter(fn, "strict_schema", p.strict_schema), openObjects: flagParameter(fn, "open_objects", p.open_objects) }, model);
      case "generate_regex":
        return prepareRegex(fn, p.prompt, p.pattern, args, format(), model);
      case "generate_choice":
        return prepareChoice(fn, p.prompt, p.choices, args, format(), model);
      case "rerank":
        return prepareRerank(fn, p.query, p.documents, p.task, p.use_cache, p.seed, model);
      default:
        throw parameterError(fn, "function_name", `must be one of generate, embed, embed_many, generate_json, generate_regex, generate_choice, generate_many, rerank`);
    }
  }
  function recordedModel(fn, model) {
    if (model === void 0 || model === null) return null;
    if (typeof model !== "string" || model === "default") throw parameterError(fn, "parameters.model", "must be a model name other than 'default' when present");
    return model;
  }
  function flagParameter(fn, name, flag) {
    if (flag === void 0 || flag === null) return false;
    if (flag !== true) throw parameterError(fn, `parameters.${name}`, "must be true when present");
    return true;
  }
  function promptParameters(fn, promptFormat, systemPrompt) {
    if (promptFormat !== "chat" && promptFormat !== "raw") throw parameterError(fn, "parameters.prompt_format", "must be 'chat' or 'raw'");
    if (systemPrompt === void 0 || systemPrompt === null) return { prompt_format: promptFormat };
    if (promptFormat === "raw") throw parameterError(fn, "parameters.system_prompt", "is used only with prompt_format 'chat'");
    return { prompt_format: promptFormat, system_prompt: text(fn, "parameters.system_prompt", systemPrompt) };
  }

  // src/extension/submit.ts
  var counted = null;
  function queueBound(capacity, limits, sessionMax) {
    const own2 = sessionMax ?? sessionQueueBound(capacity.max_queue_size);
    return own2 < limits.maxQueueSize ? { max: own2, named: "svc.max_queue_size" } : { max: limits.maxQueueSize, named: "max_queue_size (svc_set_queue_limits)" };
  }
  function checkCapacity(fn, capacity, limits, adding, inserted, sessionMax) {
    const { max, named } = queueBound(capacity, limits, sessionMax);
    const lastSeq = Number(capacity.last_seq);
    const carried2 = counted === null || counted.lastSeq > lastSeq ? Infinity : counted.depth + (lastSeq - counted.lastSeq);
    if (Math.min(Number(capacity.bound), carried2) + adding <= max) return;
    const exact = one(QUERIES.queueDepth);
    counted = { depth: Number(exact.depth), lastSeq: Number(exact.last_seq) };
    const depth = counted.depth - inserted;
    if (depth + adding > max) {
      const fits2 = Math.max(0, max - depth);
      throw new SvcError(SQLSTATE.configuration_limit_exceeded, `${fn}: the queue is full (${depth} requests pending or processing, ${named} = ${max}${adding > 1 ? `; ${adding} submitted, ${fits2} would fit` : ""})`, {
        hint: named === "svc.max_queue_size" ? "Wait for workers to drain the queue, cancel requests, or raise svc.max_queue_size." : "Wait for workers to drain the queue or cancel requests; an svc_admin member sets the limit (svc_set_queue_limits)."
      });
    }
  }
  function enqueueOne(fn, job, priority2) {
    const row = one(QUERIES.insertJob, job.functionName, job.parameters, job.grammar, priority2);
    const limits = effectiveLimits(row);
    checkCapacity(fn, row, limits, 1, 1);
    checkRoleQuota(fn, { id: row.role_id, name: row.role }, limits, 1);
    return row.request_id;
  }
  function enqueueForWaiter(fn, functionName, parameters, grammar, priority2, as) {
    const capacity = one(QUERIES.capacity, as.ownerId);
    const limits = effectiveLimits(capacity);
    checkCapacity(fn, capacity, limits, parameters.length, 0, as.maxQueueSize);
    const inserted = rows(QUERIES.insertForWaiter, functionName, parameters, grammar, priority2, as.ownerId, as.waiter, as.token);
    checkRoleQuota(fn, { id: capacity.role_id, name: capacity.role }, limits, inserted.reduce((n, r) => n + Number(r.inputs), 0));
    one(QUERIES.notifyWorkers, functionName);
    return inOrder(inserted, parameters.length);
  }
  function inOrder(inserted, count) {
    const ids = new Array(count);
    for (const r of inserted) ids[Number(r.batch_index) - 1] = r.request_id;
    return ids;
  }
  function submit(fn, priority2, prepare) {
    const p = priority(fn, priority2);
    return enqueueOne(fn, prepare(fn), p);
  }
  function submitBatch(fn, priority2, functionName, prepare) {
    const p = priority(fn, priority2);
    const { items, shared } = prepare(fn);
    const capacity = one(QUERIES.capacity, null);
    const limits = effectiveLimits(capacity);
    checkCapacity(fn, capacity, limits, items.length, 0);
    const inserted = shared ? rows(QUERIES.insertBatchSharing, functionName, items, null, p, shared) : rows(QUERIES.insertBatch, functionName, items, null, p);
    checkRoleQuota(fn, { id: capacity.role_id, name: capacity.role }, limits, items.length);
    one(QUERIES.notifyWorkers, functionName);
    return inOrder(inserted, items.length);
  }
  var split3 = (a) => [generationArgs(a.slice(0, 8)), a[8]];
  var generateAsync = (prompt, ...a) => {
    const [g, priority2] = split3(a);
    return submit("svc_generate_async", priority2, (fn) => prepareGenerate(fn, prompt, g));
  };
  var embedAsync = (textInput, useCache, priority2) => submit("svc_embed_async", priority2, (fn) => prepareEmbed(fn, textInput, useCache));
  var generateJsonAsync = (prompt, schema, ...a) => {
    const [g, priority2] = split3(a);
    return submit("svc_generate_json_async", priority2, (fn) => prepareJson(fn, prompt, schema, g));
  };
  var generateJsonAsyncText = (prompt, schema, ...a) => generateJsonAsync(prompt, new SchemaText(schema), ...a);
  var generateRegexAsync = (prompt, pattern, ...a) => {
    const [g, priority2] = split3(a);
    return submit("svc_generate_regex_async", priority2, (fn) => prepareRegex(fn, prompt, pattern, g));
  };
  var generateChoiceAsync = (prompt, choices, ...a) => {
    const [g, priority2] = split3(a);
    return submit("svc_generate_choice_async", priority2, (fn) => prepareChoice(fn, prompt, choices, g));
  };
  var rerankAsync = (query, documents, task, useCache, seed2, priority2) => submit("svc_rerank_async", priority2, (fn) => prepareRerank(fn, query, documents, task, useCache, seed2));
  var generateBatchAsync = (prompts, ...a) => {
    const [g, priority2] = split3(a);
    return submitBatch("svc_generate_batch_async", priority2, "generate", (fn) => {
      const checked = textArray(fn, "prompts", prompts, { maxItems: LIMITS.batchMaxItems });
      const options = generationOptions(fn, g);
      return { items: checked.map((prompt) => ({ ...options, prompt })) };
    });
  };
  var embedBatchAsync = (texts, useCache, priority2) => submitBatch("svc_embed_batch_async", priority2, "embed", (fn) => {
    const checked = textArray(fn, "texts", texts, { maxItems: LIMITS.batchMaxItems });
    const cache = boolean(fn, "use_cache", useCache);
    const model = modelParameters(fn, "embed");
    return { items: checked.map((text_input) => ({ text_input, use_cache: cache, ...model })) };
  });
  var rerankBatchAsync = (queries, documents, task, useCache, seed2, priority2) => submitBatch("svc_rerank_batch_async", priority2, "rerank", (fn) => {
    const checked = textArray(fn, "queries", queries, { maxItems: LIMITS.rerankBatchMaxQueries });
    const { documents: shared, ...template2 } = prepareRerank(fn, checked[0], documents, task, useCache, seed2).parameters;
    return { items: checked.map((query) => ({ ...template2, query })), shared };
  });

  // src/extension/results.ts
  var FINISHED = /* @__PURE__ */ new Set(["completed", "failed", "cancelled"]);
  var settled = (state) => state === void 0 || FINISHED.has(state.status) || state.uncommitted === true;
  function awaitAll(ids, timeoutSeconds, maxPause, read, options = {}) {
    let deadline = Date.now() + timeoutSeconds * 1e3;
    const states = /* @__PURE__ */ new Map();
    let waiting = [...ids];
    let pause = 5e-4;
    for (; ; ) {
      const fresh = read(waiting);
      for (const id of waiting) states.set(id, fresh.get(id));
      const before = waiting.length;
      waiting = waiting.filter((id) => !settled(states.get(id)));
      if (waiting.length < before && options.deadlineMovesOnProgress) deadline = Date.now() + timeoutSeconds * 1e3;
      const more = options.onPoll?.(waiting) ?? [];
      if (more.length > 0) {
        waiting.push(...more);
        pause = 5e-4;
        continue;
      }
      if (waiting.length === 0) return states;
      const left = deadline - Date.now();
      if (left <= 0) return states;
      if (waitForWorker(waiting, left, options.wakeAt ?? 0)) continue;
      one(QUERIES.sleep, Math.min(pause, Math.max(1e-3, left / 1e3)));
      pause = Math.min(pause * 1.15, maxPause);
    }
  }
  var LOCK_WAIT_MAX_MS = 1e3;
  function waitForWorker(waiting, leftMs, wakeAt) {
    const probe = (id) => ({ id, ...one(QUERIES.requestUnheld, id) });
    let held = probe(waiting[Math.min(wakeAt, waiting.length - 1)]);
    if (held.unheld && held.id !== waiting[0]) held = probe(waiting[0]);
    if (held.unheld) return false;
    try {
      one(QUERIES.awaitRequest, held.id, `${Math.ceil(Math.min(leftMs, LOCK_WAIT_MAX_MS))}ms`);
    } catch (error) {
      if (sqlState(error) !== SQLSTATE.lock_not_available) throw error;
    } finally {
      one(QUERIES.lockTimeout, held.lock_timeout);
    }
    return true;
  }
  function stateError(fn, id, state, timedOut) {
    if (state === void 0) return new SvcError(SQLSTATE.svc_unknown_request, `${fn}: request ${id} does not exist or is not visible to the current role`);
    switch (state.status) {
      case "completed":
        return null;
      case "failed":
        return new SvcError(SQLSTATE.svc_request_failed, `${fn}: request ${id} failed: ${state.error ?? "no error text"}`);
      case "cancelled":
        return new SvcError(SQLSTATE.svc_request_cancelled, `${fn}: request ${id} was cancelled`);
    }
    if (state.uncommitted) {
      return new SvcError(SQLSTATE.svc_not_committed, `${fn}: request ${id} was submitted in this transaction, which has not committed yet: no worker can see it`, {
        hint: "Commit the transaction that submitted the request, then wait for its result."
      });
    }
    return timedOut();
  }
  function readStates(ids) {
    return new Map(rows(QUERIES.jobStates, ids).map((s) => [s.request_id, s]));
  }
  function getAsyncResult(requestId, timeoutSeconds) {
    const fn = "svc_get_async_result";
    const id = uuid(fn, "request_id", requestId);
    const timeout = integerInRange(fn, "timeout_seconds", timeoutSeconds, 0, LIMITS.timeoutSecondsMax);
    const state = awaitAll([id], timeout, 0.05, readStates).get(id);
    const error = stateError(fn, id, state, () => new SvcError(SQLSTATE.svc_timed_out, `${fn}: timed out after ${timeout} s: request ${id} is still ${state?.status}`, {
      hint: "Call svc_get_async_result again later, or check svc_worker_status() for running workers."
    }));
    if (error) throw error;
    return state.result;
  }
  function getAsyncResults(requestIds, timeoutSeconds) {
    const fn = "svc_get_async_results";
    const ids = array(fn, "request_ids", requestIds, { maxItems: LIMITS.batchMaxItems }).map((id, i) => id === null ? null : uuid(fn, `request_ids[${i + 1}]`, id));
    const timeout = integerInRange(fn, "timeout_seconds", timeoutSeconds, 0, LIMITS.timeoutSecondsMax);
    const states = awaitAll([...new Set(ids.filter((id) => id !== null))], timeout, 0.05, readStates);
    return ids.map((id, i) => {
      if (id === null) return { ord: i + 1, request_id: null, status: null, result: null, error: `${fn}: request_ids[${i + 1}] is NULL` };
      const state = states.get(id);
      const error = stateError(fn, id, state, () => new SvcError(SQLSTATE.svc_timed_out, `${fn}: timed out after ${timeout} s: request ${id} is still ${state?.status}`));
      return { ord: i + 1, request_id: id, status: state?.status ?? null, result: error ? null : state.result, error: error?.message ?? null };
    });
  }
  function cancelAsync(requestId) {
    const id = uuid("svc_cancel_async", "request_id", requestId);
    return one(QUERIES.cancel, id, ["pending", "processing"]) !== void 0;
  }

  // src/queue/cache-key.ts
  function canonicalJson(value) {
    if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
    if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
    const entries = Object.keys(value).filter((k) => value[k] !== void 0).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`);
    return `{${entries.join(",")}}`;
  }
  function cacheIdentity(functionName, parameters) {
    const { use_cache: _ignored, stream: _streamed, ...rest } = parameters;
    return canonicalJson({ function: functionName, parameters: rest });
  }

  // src/extension/conninfo.ts
  var SYNC_ROLE = "svc_sync";
  var TARGET_KEYWORDS = ["host", "hostaddr", "port", "password", "connect_timeout", "sslmode", "channel_binding"];
  var FIXED = ["user", "dbname", "options", "application_name"];
  function parseConninfo(fn, text3) {
    const bad = (rule) => new SvcError(SQLSTATE.invalid_parameter_value, `${fn}: conninfo ${rule}`, {
      hint: `Give keyword=value pairs of ${TARGET_KEYWORDS.join(", ")} (e.g. 'host=/var/run/postgresql port=5432'); svc sets user, dbname and options itself.`
    });
    if (/^\s*postgres(ql)?:\/\//i.test(text3)) throw bad("must be keyword=value pairs, not a URI");
    const target = {};
    let i = 0;
    const skipSpace = () => {
      while (i < text3.length && /\s/.test(text3[i])) i++;
    };
    for (skipSpace(); i < text3.length; skipSpace()) {
      const keyword = /^[A-Za-z_]+/.exec(text3.slice(i))?.[0];
      if (!keyword) throw bad(`has no keyword at character ${i + 1}`);
      i += keyword.length;
      skipSpace();
      if (text3[i] !== "=") throw bad(`has no "=" after "${keyword}"`);
      i++;
      skipSpace();
      let value = "";
      if (text3[i] === "'") {
        for (i++; ; i++) {
          if (i >= text3.length) throw bad(`has an unterminated quoted value for "${keyword}"`);
          if (text3[i] === "'") {
            i++;
            break;
          }
          if (text3[i] === "\\") i++;
          value += text3[i];
        }
      } else {
        for (; i < text3.length && !/\s/.test(text3[i]); i++) {
          if (text3[i] === "\\") i++;
          value += text3[i] ?? "";
        }
      }
      if (FIXED.includes(keyword) || keyword === "service") throw bad(`may not set "${keyword}": svc sets who the session logs in as (${SYNC_ROLE}), its database and its options`);
      if (!TARGET_KEYWORDS.includes(keyword)) throw bad(`has "${keyword}", which is not one of ${TARGET_KEYWORDS.join(", ")}`);
      if (keyword in target) throw bad(`sets "${keyword}" twice`);
      if (value.includes("\0")) throw bad(`has a NUL character in "${keyword}"`);
      target[keyword] = value;
    }
    if (target.port !== void 0 && !/^[0-9]{1,5}$/.test(target.port)) throw bad(`port must be a port number (is "${target.port}")`);
    if (target.connect_timeout !== void 0 && !/^[0-9]{1,6}$/.test(target.connect_timeout)) throw bad(`connect_timeout must be a number of seconds (is "${target.connect_timeout}")`);
    return target;
  }

  // src/extension/autonomous.ts
  var SYNC_PRIORITY = 100;
  var waiterKey = 0;
  var syncToken = "";
  function holdWaiterLock() {
    while (waiterKey === 0 || !one(QUERIES.waiterLock, waiterKey).locked) {
      waiterKey = Math.random() * 4294967296 | 0;
    }
    while (syncToken === "" || !one(QUERIES.tokenLock, syncToken).locked) {
      syncToken = one(QUERIES.syncToken).token;
    }
    return { key: waiterKey, token: syncToken };
  }
  var keptTarget = null;
  function dblink(action, target, applicationName, statement) {
    return rows(QUERIES.syncDblink, action, target, applicationName, statement).map((row) => row.r);
  }
  function dropKept() {
    if (keptTarget === null) return;
    keptTarget = null;
    try {
      dblink("disconnect", null, null, null);
    } catch {
    }
  }
  function connectKept(fn, target) {
    try {
      dblink("connect", target, null, null);
    } catch (error) {
      if (sqlState(error) !== SQLSTATE.duplicate_object) throw connectionError(fn, error);
      dblink("disconnect", null, null, null);
      try {
        dblink("connect", target, null, null);
      } catch (again) {
        throw connectionError(fn, again);
      }
    }
    keptTarget = JSON.stringify(target);
  }
  function connectionError(fn, error) {
    const e = error;
    return new SvcError(SQLSTATE.sqlclient_unable_to_establish_sqlconnection, `${fn}: the autonomous session could not log in as ${SYNC_ROLE}: ${(e.detail ?? e.message ?? String(error)).trim()}`, {
      hint: `pg_hba.conf must let this server log in as ${SYNC_ROLE} (e.g. "local all ${SYNC_ROLE} peer map=${SYNC_ROLE}" with pg_ident.conf "${SYNC_ROLE} postgres ${SYNC_ROLE}"), or an administrator sets where it connects with svc_set_sync_connection(); see docs/security.md. The _async functions need no autonomous session.`
    });
  }
  function openSession(fn, ctx) {
    const role = one(QUERIES.syncRole, SYNC_ROLE);
    if (!role) throw new SvcError(SQLSTATE.sqlclient_unable_to_establish_sqlconnection, `${fn}: role ${SYNC_ROLE} does not exist`, { hint: "Reinstall svc (DROP EXTENSION svc; CREATE EXTENSION svc) to create it." });
    if (!role.powerless) {
      throw new SvcError(SQLSTATE.sqlclient_unable_to_establish_sqlconnection, `${fn}: role ${SYNC_ROLE} must be a LOGIN role with no other attribute and no membership`, {
        detail: "The synchronous functions' autonomous session logs in as it; it must not be able to do more than svc grants it.",
        hint: `ALTER ROLE ${SYNC_ROLE} NOSUPERUSER NOCREATEROLE NOCREATEDB NOREPLICATION NOBYPASSRLS, and revoke its memberships.`
      });
    }
    const target = ctx.target ?? {};
    if (ctx.dblink_reachable) {
      dropKept();
      const token = one(QUERIES.randomToken).token;
      return { fn, target, applicationName: `${SYNC_ROLE}_${token}`, schema: ctx.schema, keep: false };
    }
    if (keptTarget !== JSON.stringify(target)) {
      dropKept();
      connectKept(fn, target);
    }
    return { fn, target, applicationName: SYNC_ROLE, schema: ctx.schema, keep: true };
  }
  function remote(session, statement) {
    for (let attempt = 0; ; attempt++) {
      try {
        return session.keep ? dblink("run", null, null, statement) : dblink("run_once", session.target, session.applicationName, statement);
      } catch (error) {
        const code = sqlState(error);
        if (!code.startsWith("08")) throw error;
        if (!session.keep || attempt > 0) throw connectionError(session.fn, error);
        dropKept();
        connectKept(session.fn, session.target);
      }
    }
  }
  var syncContext = () => one(QUERIES.syncContext);
  var quotedIds = (ids) => quoteLiteral(`{${ids.join(",")}}`);
  function submitRemote(session, ctx, waiter, functionName, parameters, maxQueueSize) {
    const payload = JSON.stringify({
      caller: session.fn,
      function_name: functionName,
      requests: parameters,
      owner_id: ctx.owner_id,
      pid: ctx.pid,
      waiter: waiter.key,
      token: waiter.token,
      max_queue_size: maxQueueSize
    });
    return JSON.parse(remote(session, REMOTE.submit(session.schema, quoteLiteral(payload)))[0]);
  }
  function readRemote(session, waiter, ids) {
    const states = remote(session, REMOTE.state(session.schema, quotedIds(ids), quoteLiteral(waiter.token))).map((row) => JSON.parse(row));
    return new Map(states.map((s) => [s.request_id, s]));
  }
  function cancelRemoteQuietly(session, waiter, ids) {
    if (ids.length === 0) return;
    try {
      remote(session, REMOTE.cancel(session.schema, quotedIds(ids), quoteLiteral(waiter.token)));
    } catch {
    }
  }
  function syncSubmit(payload) {
    const { caller, function_name, requests, owner_id: ownerId, pid, waiter, token, max_queue_size } = payload ?? {};
    const fn = typeof caller === "string" && /^svc_[a-z_]+$/.test(caller) ? caller : "svc__sync_submit";
    if (typeof ownerId !== "string" || !/^[1-9][0-9]{0,9}$/.test(ownerId)) throw new SvcError(SQLSTATE.invalid_parameter_value, `${fn}: payload.owner_id must be a role's oid`);
    if (typeof token !== "string" || !/^[0-9a-f]{64}$/.test(token)) throw new SvcError(SQLSTATE.invalid_parameter_value, `${fn}: payload.token must be 64 hexadecimal digits`);
    for (const [name, value] of [["pid", pid], ["waiter", waiter], ["max_queue_size", max_queue_size]]) {
      if (!Number.isInteger(value)) throw new SvcError(SQLSTATE.invalid_parameter_value, `${fn}: payload.${name} must be an integer`);
    }
    if (!one(QUERIES.syncWaiterMayActAs, pid, waiter, token, ownerId)?.ok) {
      throw new SvcError(SQLSTATE.insufficient_privilege, `${fn}: no backend ${String(pid)} of this database waits with lock ${String(waiter)} and this token as a role that may act as role oid ${ownerId}`);
    }
    if (!Array.isArray(requests) || requests.length === 0) throw new SvcError(SQLSTATE.invalid_parameter_value, `${fn}: payload.requests must be a non-empty array`);
    const prepared = requests.map((parameters) => prepareFromParameters(fn, function_name, parameters));
    if (prepared.some((job) => job.grammar !== prepared[0].grammar)) throw new SvcError(SQLSTATE.invalid_parameter_value, `${fn}: payload.requests must share one constraint`);
    return enqueueForWaiter(fn, prepared[0].functionName, prepared.map((job) => job.parameters), prepared[0].grammar, SYNC_PRIORITY, {
      ownerId,
      waiter,
      token,
      maxQueueSize: max_queue_size
    });
  }
  function setSyncConnection(conninfo) {
    const fn = "svc_set_sync_connection";
    const text3 = text(fn, "conninfo", conninfo, { allowEmpty: true, maxChars: 1e4 });
    const target = text3.trim() === "" ? null : parseConninfo(fn, text3);
    try {
      dblink("run_once", target ?? {}, `svc_check_${Date.now()}`, "SELECT 1::text");
    } catch (error) {
      const reason = connectionError(fn, error);
      throw new SvcError(reason.sqlerrcode, `${reason.message}; the sync connection is unchanged`, { hint: reason.hint });
    }
    if (target === null) one(QUERIES.configDelete, "sync_connection");
    else one(QUERIES.configPut, "sync_connection", target);
    dropKept();
    return dblink("describe", target ?? {}, null, null)[0];
  }

  // src/extension/sync.ts
  var WINDOW = 1e3;
  var WAKE_AT = 16;
  function workersSummary(model, withPending = false) {
    const s = one(QUERIES.workersSummary, model);
    const live = Number(s.live);
    const serving = Number(s.serving);
    const forModel = model === "default" ? "" : ` for model "${model}"`;
    let text3;
    if (live === 0) text3 = Number(s.known) === 0 ? "no worker has ever connected (start svc-worker)" : "no worker is running (none sent a heartbeat in the last minute)";
    else if (serving === 0) text3 = `none of the ${live} running worker(s) serves model "${model}"`;
    else if (!withPending) text3 = `${serving} worker(s) running${forModel}`;
    else text3 = `${serving} worker(s) running${forModel}, ${one(QUERIES.pendingForModel, model).pending} request(s) pending${forModel}`;
    return { text: text3, live, serving, slots: Number(s.slots) };
  }
  function noLiveWorker(fn, model, workers = workersSummary(model)) {
    if (workers.serving > 0) return null;
    return new SvcError(SQLSTATE.svc_no_worker_for_model, `${fn}: ${workers.text}`, {
      hint: workers.live === 0 ? "Start a worker (svc-worker), or use the _async functions: their requests wait for one." : `Start a worker with --model ${model}=PATH, choose another model (SET svc.model), or use the _async functions: their requests wait for a worker of the model.`
    });
  }
  var modelOf = (job) => typeof job.parameters.model === "string" ? job.parameters.model : "default";
  function fromCache(items, outcomes) {
    const valid = items.flatMap((item, i) => item instanceof SvcError ? [] : [i]);
    const cacheable = valid.filter((i) => items[i].parameters.use_cache === true);
    if (cacheable.length === 1) {
      const job = items[cacheable[0]];
      outcomes[cacheable[0]].result = one(QUERIES.cacheGet, cacheIdentity(job.functionName, job.parameters), modelOf(job))?.result ?? null;
    } else if (cacheable.length > 1) {
      const jobsOf = cacheable.map((i) => items[i]);
      const hits = rows(QUERIES.cacheGetMany, jobsOf.map((j) => cacheIdentity(j.functionName, j.parameters)), jobsOf.map(modelOf));
      for (const hit of hits) outcomes[cacheable[Number(hit.ord) - 1]].result = hit.result;
    }
    return valid.filter((i) => outcomes[i].result === null);
  }
  function unitsOf(items, todo, together, slots = 0) {
    const job = (i) => items[i];
    if (!together) return todo.map((i) => ({ items: [i], job: job(i) }));
    let left = Math.max(Math.ceil(todo.length / together.max), together.spread ? Math.min(todo.length, 2 * slots) : 0);
    let size = Math.ceil(todo.length / left);
    const runs = [];
    let run3 = [];
    let weight = 0;
    for (const [k, i] of todo.entries()) {
      const w = together.weight(job(i));
      if (run3.length === size || run3.length > 0 && weight + w > together.maxWeight) {
        runs.push(run3);
        run3 = [];
        weight = 0;
        left = Math.max(1, left - 1);
        size = Math.min(together.max, Math.ceil((todo.length - k) / left));
      }
      run3.push(i);
      weight += w;
    }
    runs.push(run3);
    return runs.map((items2) => ({ items: items2, job: together.request(items2.map(job)) }));
  }
  function runAll(fn, items, together) {
    const outcomes = items.map((item) => ({ result: null, error: item instanceof SvcError ? item : null }));
    let todo = fromCache(items, outcomes);
    if (todo.length === 0) return outcomes;
    const timeout = intervalSetting("svc.sync_timeout");
    const maxQueueSize = sessionQueueBound();
    const summaries = /* @__PURE__ */ new Map();
    for (const model of new Set(todo.map((i) => modelOf(items[i])))) summaries.set(model, workersSummary(model));
    todo = todo.filter((i) => {
      const model = modelOf(items[i]);
      const error = noLiveWorker(fn, model, summaries.get(model));
      if (error) outcomes[i].error = error;
      return error === null;
    });
    if (todo.length === 0) return outcomes;
    const slots = [...summaries.values()].reduce((n, s) => n + s.slots, 0);
    const units = unitsOf(items, todo, together, slots);
    const ctx = syncContext();
    const waiter = holdWaiterLock();
    const session = openSession(fn, ctx);
    const unitOf = /* @__PURE__ */ new Map();
    let next = 0;
    let window = WINDOW;
    const submitMore = (inQueue2) => {
      for (; ; ) {
        if (next >= units.length || inQueue2 > window / 2) return [];
        let end = next + 1;
        for (let room = window - inQueue2 - units[next].items.length; end < units.length && room >= units[end].items.length; end++) room -= units[end].items.length;
        const batch = units.slice(next, end);
        try {
          const ids = submitRemote(session, ctx, waiter, batch[0].job.functionName, batch.map((u) => u.job.parameters), maxQueueSize);
          ids.forEach((id, k) => unitOf.set(id, next + k));
          next = end;
          window = Math.min(WINDOW, window * 2);
          return ids;
        } catch (error) {
          const alone = batch.length === 1 && inQueue2 === 0;
          if (sqlState(error) !== SQLSTATE.configuration_limit_exceeded || alone && batch[0].items.length === 1) throw error;
          window = Math.max(1, Math.floor(batch.reduce((n, u) => n + u.items.length, 0) / 2));
          if (alone) units.splice(next, 1, ...unitsOf(items, batch[0].items.slice(0, window), together), ...unitsOf(items, batch[0].items.slice(window), together));
          if (inQueue2 > 0) return [];
        }
      }
    };
    const inQueue = (waiting) => waiting.reduce((n, id) => n + units[unitOf.get(id)].items.length, 0);
    const local = ctx.isolation === "read committed";
    const read = local ? (ids) => readUnderWaiter(waiter.key, ids) : (ids) => readRemote(session, waiter, ids);
    let states;
    try {
      states = awaitAll(submitMore(0), timeout, 0.02, read, {
        onPoll: (waiting) => submitMore(inQueue(waiting)),
        deadlineMovesOnProgress: true,
        // Requests of many items land a few at a time: each wake has few to read.
        wakeAt: together ? 0 : WAKE_AT
      });
    } catch (error) {
      cancelRemoteQuietly(session, waiter, [...unitOf.keys()]);
      throw error;
    }
    const stillWaiting = [];
    let summary;
    const timedOut = (id, status) => {
      summary ??= workersSummary(modelOf(units[unitOf.get(id)].job), true).text;
      return new SvcError(SQLSTATE.svc_timed_out, `${fn}: timed out: no result within ${timeout} s (svc.sync_timeout); ${summary}`, {
        detail: `request ${id} was ${status}; it is cancelled (a worker running it stops)`,
        hint: "Start a worker (svc-worker), raise svc.sync_timeout, or use the _async functions."
      });
    };
    for (const [id, u] of unitOf) {
      const unit = units[u];
      const state = states.get(id);
      const error = stateError(fn, id, state, () => timedOut(id, state.status));
      if (error?.sqlerrcode === SQLSTATE.svc_timed_out) stillWaiting.push(id);
      if (error) for (const i of unit.items) outcomes[i].error = error;
      else if (!together) outcomes[unit.items[0]].result = state.result ?? "";
      else {
        const parts = together.split(state.result ?? "[]");
        unit.items.forEach((i, k) => {
          const part = parts[k] ?? { error: "its result has no answer for this input" };
          if ("decoded" in part) outcomes[i].decoded = part.decoded;
          else outcomes[i].error = stateError(fn, id, { status: "failed", result: null, error: part.error }, () => timedOut(id, "failed"));
        });
      }
    }
    for (const unit of units.slice(next)) {
      for (const i of unit.items) outcomes[i].error = new SvcError(SQLSTATE.svc_timed_out, `${fn}: timed out before this input was submitted: no result within ${timeout} s (svc.sync_timeout)`);
    }
    cancelRemoteQuietly(session, waiter, stillWaiting);
    return outcomes;
  }
  function readUnderWaiter(key, ids) {
    const states = /* @__PURE__ */ new Map();
    for (const s of rows(QUERIES.waiterStates, key)) {
      if (s.status === "pending" || s.status === "processing") states.set(s.request_id, { status: s.status, result: null, error: null, uncommitted: s.uncommitted === true });
    }
    const finished = ids.filter((id) => !states.has(id));
    if (finished.length > 0) for (const [id, state] of readStates(finished)) states.set(id, state);
    return states;
  }
  var runMany = (fn, items) => runAll(fn, items);
  function runOne(fn, job) {
    const [outcome] = runAll(fn, [job]);
    if (outcome.error) throw outcome.error;
    return outcome.result;
  }
  function prepareMany(fn, name, field, values, prepare) {
    const list = array(fn, name, values, { maxItems: LIMITS.syncSetMaxItems });
    const template2 = prepare(fn, "x");
    return list.map((value, i) => {
      try {
        const checked = textItem(fn, itemName(name, i), value);
        return { ...template2, parameters: { ...template2.parameters, [field]: checked } };
      } catch (error) {
        if (error instanceof SvcError) return error;
        throw error;
      }
    });
  }
  function generationTogether(template2) {
    const functionName = template2.functionName;
    if (!isGenerateManyFunction(functionName)) return void 0;
    const max = promptsPerRequest(functionName, template2.parameters);
    if (max < 2) return void 0;
    return {
      max,
      weight: (job) => job.parameters.prompt.length,
      maxWeight: GENERATE_MANY_MAX_CHARS,
      request: (prompts) => ({ functionName: "generate_many", parameters: generateManyParameters(functionName, prompts.map((job) => job.parameters)), grammar: prompts[0].grammar }),
      split: (result) => readGenerateManyResult(result).map((part) => typeof part === "string" ? { decoded: part } : part),
      spread: true
    };
  }
  function textRows(fn, items) {
    const template2 = items.find((item) => !(item instanceof SvcError));
    const together = template2 && generationTogether(template2);
    return runAll(fn, items, together).map((o, i) => ({ ord: i + 1, result: o.error ? null : o.decoded ?? o.result, error: o.error?.message ?? null }));
  }
  function generate(prompt, ...g) {
    return runOne("svc_generate", prepareGenerate("svc_generate", prompt, generationArgs(g)));
  }
  function generateMany(prompts, ...g) {
    const fn = "svc_generate";
    return textRows(fn, prepareMany(fn, "prompts", "prompt", prompts, (f, p) => prepareGenerate(f, p, generationArgs(g))));
  }
  function embed(textInput, useCache) {
    return JSON.parse(runOne("svc_embed", prepareEmbed("svc_embed", textInput, useCache)));
  }
  var EMBED_TOGETHER = {
    max: EMBED_MANY_MAX_TEXTS,
    weight: (job) => job.parameters.text_input.length,
    maxWeight: EMBED_MANY_MAX_CHARS,
    request: (texts) => ({ functionName: "embed_many", parameters: embedManyParameters(texts.map((job) => job.parameters)), grammar: null }),
    split: (result) => readEmbedManyResult(result).map((part) => Array.isArray(part) ? { decoded: part } : part)
  };
  function embedMany(texts, useCache) {
    const fn = "svc_embed";
    const outcomes = runAll(fn, prepareMany(fn, "texts", "text_input", texts, (f, t) => prepareEmbed(f, t, useCache)), EMBED_TOGETHER);
    return outcomes.map((o, i) => ({
      ord: i + 1,
      embedding: o.error ? null : o.decoded ?? JSON.parse(o.result),
      error: o.error?.message ?? null
    }));
  }
  function generateJson(prompt, schema, ...g) {
    return runOne("svc_generate_json", prepareJson("svc_generate_json", prompt, schema, generationArgs(g)));
  }
  function generateJsonMany(prompts, schema, ...g) {
    const fn = "svc_generate_json";
    return textRows(fn, prepareMany(fn, "prompts", "prompt", prompts, (f, p) => prepareJson(f, p, schema, generationArgs(g))));
  }
  var generateJsonText = (prompt, schema, ...g) => generateJson(prompt, new SchemaText(schema), ...g);
  var generateJsonManyText = (prompts, schema, ...g) => generateJsonMany(prompts, new SchemaText(schema), ...g);
  function generateRegex(prompt, pattern, ...g) {
    return runOne("svc_generate_regex", prepareRegex("svc_generate_regex", prompt, pattern, generationArgs(g)));
  }
  function generateRegexMany(prompts, pattern, ...g) {
    const fn = "svc_generate_regex";
    return textRows(fn, prepareMany(fn, "prompts", "prompt", prompts, (f, p) => prepareRegex(f, p, pattern, generationArgs(g))));
  }
  function generateChoice(prompt, choices, ...g) {
    return runOne("svc_generate_choice", prepareChoice("svc_generate_choice", prompt, choices, generationArgs(g)));
  }
  function generateChoiceMany(prompts, choices, ...g) {
    const fn = "svc_generate_choice";
    return textRows(fn, prepareMany(fn, "prompts", "prompt", prompts, (f, p) => prepareChoice(f, p, choices, generationArgs(g))));
  }
  function topK(fn, value) {
    return value === null || value === void 0 ? Infinity : integerInRange(fn, "top_k", value, 1, 2147483647);
  }
  var ranking = (result, k) => JSON.parse(result).slice(0, k);
  var ranked = (result, k) => ranking(result, k).map(({ document, score }) => ({ document, score }));
  function rerank(query, documents, task, useCache, seed2, k) {
    const fn = "svc_rerank";
    const job = prepareRerank(fn, query, documents, task, useCache, seed2);
    const cut = topK(fn, k);
    return ranked(runOne(fn, job), cut);
  }
  function rerankDocsOnly(query, documents, task, useCache, seed2, k) {
    const fn = "svc_rerank_docs_only";
    const job = prepareRerank(fn, query, documents, task, useCache, seed2);
    const cut = topK(fn, k);
    return ranking(runOne(fn, job), cut).map((r) => r.document);
  }
  function rankAll(fn, queries, documents, task, useCache, seed2, k) {
    const items = prepareMany(fn, "queries", "query", queries, (f, q2) => prepareRerank(f, q2, documents, task, useCache, seed2));
    const cut = topK(fn, k);
    return { items, outcomes: runAll(fn, items), cut };
  }
  function rerankMany(queries, documents, task, useCache, seed2, k) {
    const { outcomes, cut } = rankAll("svc_rerank", queries, documents, task, useCache, seed2, k);
    return outcomes.flatMap(
      (o, i) => o.error ? [{ ord: i + 1, document: null, score: null, error: o.error.message }] : ranked(o.result, cut).map((r) => ({ ord: i + 1, ...r, error: null }))
    );
  }
  function rerankBatch(queries, documents, task, useCache, seed2, k) {
    const { items, outcomes, cut } = rankAll("svc_rerank_batch", queries, documents, task, useCache, seed2, k);
    return outcomes.flatMap((o, i) => {
      const item = items[i];
      const query = item instanceof SvcError ? null : item.parameters.query;
      if (o.error) return [{ ord: i + 1, query, rank: null, doc_index: null, document: null, score: null, error: o.error.message }];
      return ranking(o.result, cut).map((r, rank) => ({ ord: i + 1, query, rank: rank + 1, doc_index: r.index + 1, document: r.document, score: r.score, error: null }));
    });
  }

  // src/vectorizer/chunk.ts
  var MAX_CHUNK_SIZE = 1e6;
  var MAX_SEPARATORS = 16;
  var MAX_SEPARATOR_LENGTH = 64;
  function chunkingProblem(value) {
    if (typeof value !== "object" || value === null || Array.isArray(value))
      return `chunking must be an object (is ${describe2(value)})`;
    const { by, size, overlap, separators } = value;
    if (by !== "none" && by !== "characters" && by !== "tokens")
      return `by must be 'none', 'characters' or 'tokens' (is ${describe2(by)})`;
    if (by === "none") return void 0;
    if (typeof size !== "number" || !Number.isInteger(size) || size < 1 || size > MAX_CHUNK_SIZE) {
      return `size must be an integer from 1 to ${MAX_CHUNK_SIZE} (is ${describe2(size)})`;
    }
    if (typeof overlap !== "number" || !Number.isInteger(overlap) || overlap < 0)
      return `overlap must be an integer >= 0 (is ${describe2(overlap)})`;
    if (overlap >= size) return `overlap must be less than size (is ${overlap}, size ${size})`;
    return separatorsProblem(separators);
  }
  function declarationProblem(value) {
    const problem = chunkingProblem(value);
    if (problem !== void 0) return problem;
    const { by, size, overlap } = value;
    if (by !== "none" && overlap > Math.floor(size / 2))
      return `overlap must be at most half of size (is ${overlap}, size ${size})`;
    return void 0;
  }
  function separatorsProblem(separators) {
    if (!Array.isArray(separators)) return `separators must be an array of strings (is ${describe2(separators)})`;
    if (separators.length > MAX_SEPARATORS)
      return `separators must have at most ${MAX_SEPARATORS} entries (has ${separators.length})`;
    for (const [index, separator] of separators.entries()) {
      if (typeof separator !== "string") return `separators[${index}] must be a string (is ${describe2(separator)})`;
      const characters2 = codePointLength(separator);
      if (characters2 > MAX_SEPARATOR_LENGTH)
        return `separators[${index}] must be at most ${MAX_SEPARATOR_LENGTH} characters (is ${characters2})`;
      if (hasLoneSurrogate(separator)) return `separators[${index}] must not contain a lone surrogate`;
    }
    return void 0;
  }
  function codePointLength(text3) {
    let count = 0;
    for (const _character of text3) count++;
    return count;
  }
  function hasLoneSurrogate(text3) {
    for (const character of text3) {
      if (character.length === 1 && character.charCodeAt(0) >= 55296 && character.charCodeAt(0) <= 57343) return true;
    }
    return false;
  }
  function describe2(value) {
    if (typeof value === "string") return JSON.stringify(value);
    if (typeof value === "number" || typeof value === "boolean") return String(value);
    if (value === null) return "null";
    return Array.isArray(value) ? "an array" : typeof value;
  }

  // src/vectorizer/template.ts
  var CHUNK = "chunk";
  var MAX_TEMPLATE_CHARS = 4096;
  var MAX_TEMPLATE_REFERENCES = 64;
  var MAX_RENDERED_CHARS = 262144;
  function templateFields(template2) {
    const names = [];
    for (const part of parseTemplate(template2).parts) {
      if (part.kind === "column" && !names.includes(part.name)) names.push(part.name);
    }
    return names;
  }
  function templateProblem(template2) {
    if (typeof template2 !== "string")
      return `template must be a string (is ${template2 === null ? "null" : typeof template2})`;
    if (template2.length > MAX_TEMPLATE_CHARS)
      return `template must be at most ${MAX_TEMPLATE_CHARS} characters (is ${template2.length})`;
    const { parts, problem } = parseTemplate(template2);
    if (problem !== void 0) return problem;
    const references = parts.filter((part) => part.kind !== "text").length;
    if (references > MAX_TEMPLATE_REFERENCES)
      return `template may refer to $chunk and columns at most ${MAX_TEMPLATE_REFERENCES} times (does ${references} times)`;
    if (!parts.some((part) => part.kind === "chunk"))
      return "template must contain $chunk (or ${chunk}), where the chunk goes";
    return void 0;
  }
  function renderedLengthWithoutFields(template2, chunkChars) {
    let length = 0;
    for (const part of parseTemplate(template2).parts) {
      if (part.kind === "text") length += part.text.length;
      else if (part.kind === "chunk") length += chunkChars;
    }
    return length;
  }
  function parseTemplate(template2) {
    const parts = [];
    let problem;
    let literal2 = "";
    const reference = (name) => {
      if (literal2 !== "") parts.push({ kind: "text", text: literal2 });
      literal2 = "";
      parts.push(name === CHUNK ? { kind: "chunk" } : { kind: "column", name });
    };
    let at3 = 0;
    while (at3 < template2.length) {
      const dollar = template2.indexOf("$", at3);
      if (dollar === -1) {
        literal2 += template2.slice(at3);
        break;
      }
      literal2 += template2.slice(at3, dollar);
      const next = template2[dollar + 1];
      if (next === "$") {
        literal2 += "$";
        at3 = dollar + 2;
      } else if (next === "{") {
        const close = template2.indexOf("}", dollar + 2);
        if (close === -1) {
          problem ??= `\`\${\` at offset ${dollar} has no closing \`}\``;
          literal2 += template2.slice(dollar);
          break;
        }
        if (close === dollar + 2) {
          problem ??= `\`\${}\` at offset ${dollar} names no column`;
          literal2 += "${}";
        } else {
          reference(template2.slice(dollar + 2, close));
        }
        at3 = close + 1;
      } else {
        const end = nameEnd(template2, dollar + 1);
        if (end === dollar + 1) {
          problem ??= `\`$\` at offset ${dollar} must be followed by a name, \`{\` or \`$\` (\`$$\` is a literal \`$\`)`;
          literal2 += "$";
        } else {
          reference(template2.slice(dollar + 1, end));
        }
        at3 = Math.max(end, dollar + 1);
      }
    }
    if (literal2 !== "") parts.push({ kind: "text", text: literal2 });
    return { parts, problem };
  }
  function nameEnd(template2, from) {
    if (from >= template2.length || !/[A-Za-z_]/.test(template2[from])) return from;
    let end = from + 1;
    while (end < template2.length && /[A-Za-z0-9_]/.test(template2[end])) end++;
    return end;
  }

  // src/extension/vectorizer-sql.ts
  var DESTINATION_COLUMNS = ["chunk_index", "chunk", "embedding"];
  var GENERATED = {
    changed: { name: (id) => `svc__vz_${id}_changed`, args: "" },
    backfill: { name: (id) => `svc__vz_${id}_backfill`, args: "" },
    gate: { name: (id) => `svc__vz_${id}_queue`, args: "jsonb, jsonb, boolean" }
  };
  var signature = (svcSchema, id, fn) => `${qualified(svcSchema, GENERATED[fn].name(id))}(${GENERATED[fn].args})`;
  var triggerFunctionSignature = (svcSchema, id) => signature(svcSchema, id, "changed");
  var generatedPattern = (id) => `svc\\_\\_vz\\_${id}\\_%`;
  var TRIGGER_EVENTS = ["insert", "update", "delete", "truncate"];
  var triggerName = (vectorizer, event) => `svc_vectorize_${vectorizer}_${event}`;
  var proxyRoleName = (ownerOid) => `svc_vectorizer_${ownerOid}`;
  var SETTINGS_CLAUSE = `SET search_path = pg_catalog, pg_temp SET standard_conforming_strings = on`;
  function proxyOnly(v, fn) {
    const message = `${fn} must run as ${v.proxy}, its owner (SECURITY DEFINER): it was altered`;
    return `IF current_user OPERATOR(pg_catalog.<>) ${quoteLiteral(v.proxy)}::pg_catalog.name THEN
    RAISE EXCEPTION USING ERRCODE = 'insufficient_privilege', MESSAGE = ${quoteLiteral(message)};
  END IF;`;
  }
  function proxyFunction(v, fn, params, returns, declare, body) {
    const name = GENERATED[fn].name(v.id);
    const text3 = `
${declare}BEGIN
  ${proxyOnly(v, name)}
${body}
END
`;
    return `CREATE FUNCTION ${qualified(v.svcSchema, name)}(${params}) RETURNS ${returns} LANGUAGE plpgsql VOLATILE SECURITY DEFINER
${SETTINGS_CLAUSE} AS ${dollarQuote(text3, fn)}`;
  }
  var keyList = (v, alias) => v.keys.map((k) => alias ? `${alias}.${quoteIdent(k.name)}` : quoteIdent(k.name)).join(", ");
  var keyObject = (v, alias) => `pg_catalog.jsonb_build_object(${v.keys.map((k) => `${quoteLiteral(k.name)}, ${alias}.${quoteIdent(k.name)}`).join(", ")})`;
  function itemExpression(v, alias) {
    const fields = v.fields.map((f) => `${quoteLiteral(f)}, ${alias}.${quoteIdent(f)}::pg_catalog.text`).join(", ");
    return `pg_catalog.jsonb_build_object('key', ${keyObject(v, alias)}, 'text', ${alias}.${quoteIdent(v.column)}::pg_catalog.text, 'fields', pg_catalog.jsonb_build_object(${fields}))`;
  }
  function destinationTable(v) {
    const keys2 = v.keys.map((k) => `${quoteIdent(k.name)} ${k.storage} NOT NULL`).join(", ");
    const check = v.dimensions !== null && v.embeddingType === "real[]" ? ` CHECK (cardinality(embedding) = ${v.dimensions})` : "";
    return `CREATE TABLE ${v.destination} (${keys2}, chunk_index integer NOT NULL, chunk text NOT NULL, embedding ${v.embeddingType} NOT NULL${check}, PRIMARY KEY (${keyList(v)}, chunk_index))`;
  }
  function gateFunction(v) {
    const svc = (name) => qualified(v.svcSchema, name);
    const body = `
BEGIN
  IF $3 THEN
    PERFORM ${svc("svc__vectorizer_forget")}(${v.id}, NULL);
    RETURN 0;
  END IF;
  IF $1 IS NOT NULL THEN
    PERFORM ${svc("svc__vectorizer_forget")}(${v.id}, $1);
  END IF;
  RETURN ${svc("svc__vectorizer_enqueue")}(${v.id}, $2);
END
`;
    return `CREATE FUNCTION ${svc(GENERATED.gate.name(v.id))}(gone jsonb, items jsonb, everything boolean) RETURNS integer LANGUAGE plpgsql VOLATILE SECURITY DEFINER
${SETTINGS_CLAUSE} SET plv8.start_proc = '' AS ${dollarQuote(body, "gate")}`;
  }
  function triggerFunction(v) {
    const gate = qualified(v.svcSchema, GENERATED.gate.name(v.id));
    return proxyFunction(v, "changed", "", "trigger", "DECLARE\n  gone jsonb;\n  items jsonb;\n", `  IF TG_OP = 'TRUNCATE' THEN
    PERFORM ${gate}(NULL, NULL, true);
    RETURN NULL;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT pg_catalog.jsonb_agg(${keyObject(v, "o")}) INTO gone FROM svc_old o;
  ELSIF TG_OP = 'UPDATE' THEN
    SELECT pg_catalog.jsonb_agg(g.key) INTO gone FROM (SELECT ${keyObject(v, "o")} FROM svc_old o EXCEPT SELECT ${keyObject(v, "n")} FROM svc_new n) AS g(key);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    SELECT pg_catalog.jsonb_agg(${itemExpression(v, "n")}) INTO items FROM svc_new n;
  END IF;
  PERFORM ${gate}(gone, items, false);
  RETURN NULL;`);
  }
  function triggers(v, vectorizer) {
    const fn = triggerFunctionSignature(v.svcSchema, v.id);
    const on = (event, referencing) => `CREATE TRIGGER ${quoteIdent(triggerName(vectorizer, event))} AFTER ${event.toUpperCase()} ON ${v.source}${referencing} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}`;
    return [
      on("insert", " REFERENCING NEW TABLE AS svc_new"),
      on("update", " REFERENCING OLD TABLE AS svc_old NEW TABLE AS svc_new"),
      on("delete", " REFERENCING OLD TABLE AS svc_old"),
      on("truncate", "")
    ];
  }
  var SETTINGS_SNAPSHOT = `SELECT pg_catalog.jsonb_object_agg(s.name, s.setting) AS settings FROM pg_catalog.pg_settings s WHERE s.context OPERATOR(pg_catalog.=) 'user'`;
  var SETTINGS_RESTORE = `SELECT pg_catalog.count(pg_catalog.set_config(c.name, c.value, false)) AS restored FROM (
  SELECT b.key AS name, b.value FROM pg_catalog.jsonb_each_text($1::pg_catalog.jsonb) b
    JOIN pg_catalog.pg_settings s ON s.name OPERATOR(pg_catalog.=) b.key WHERE s.setting OPERATOR(pg_catalog.<>) b.value
  UNION ALL
  SELECT s.name, s.reset_val FROM pg_catalog.pg_settings s
  WHERE s.context OPERATOR(pg_catalog.=) 'user' AND NOT ($1::pg_catalog.jsonb OPERATOR(pg_catalog.?) s.name) AND s.setting IS DISTINCT FROM s.reset_val
) c`;
  var BACKFILL_PART = 5e3;
  function backfillFunction(v) {
    const gate = qualified(v.svcSchema, GENERATED.gate.name(v.id));
    return proxyFunction(v, "backfill", "", "bigint", "", `  RETURN (SELECT coalesce(sum(${gate}(NULL, p.items, false)), 0)::bigint
  FROM (SELECT pg_catalog.jsonb_agg(s.item ORDER BY s.ord) AS items FROM (
    SELECT ${itemExpression(v, "r")} AS item, row_number() OVER (ORDER BY ${keyList(v, "r")}) AS ord FROM ${v.source} r
  ) s GROUP BY (s.ord - 1) / ${BACKFILL_PART}) p);`);
  }
  function searchQuery(v) {
    if (v.vectorSchema === null) return exactScanQuery(v);
    const distance = `d.embedding OPERATOR(${quoteIdent(v.vectorSchema)}.<=>) q.embedding`;
    const candidates = `SELECT ${keyColumns(v, "d")}, d.chunk_index, d.chunk, (${distance})::double precision AS distance
    FROM ${v.destination} d, (SELECT $1::text::${qualified(v.vectorSchema, "vector")} AS embedding) q ORDER BY ${distance} LIMIT $2::integer * 10`;
    return `SELECT b.key, b.chunk_index, b.chunk, b.distance FROM (
  SELECT DISTINCT ON (k.key) k.* FROM (SELECT ${aliasedKeyObject(v, "c")} AS key, c.chunk_index, c.chunk, c.distance FROM (${candidates}) c) k
  ORDER BY k.key, k.distance, k.chunk_index
) b ORDER BY b.distance, b.key LIMIT $2::integer`;
  }
  var keyAlias = (i) => `svc_key_${i + 1}`;
  var keyColumns = (v, table) => v.keys.map((k, i) => `${table}.${quoteIdent(k.name)} AS ${keyAlias(i)}`).join(", ");
  var aliasedKeyObject = (v, table) => `pg_catalog.jsonb_build_object(${v.keys.map((k, i) => `${quoteLiteral(k.name)}, ${table}.${keyAlias(i)}`).join(", ")})`;
  function exactScanQuery(v) {
    const query = "(SELECT q.embedding FROM q)";
    const distance = `${qualified(v.svcSchema, "svc_cosine_distance")}(d.embedding, ${query})`;
    const bound = `${qualified(v.svcSchema, "svc__cosine_distance_lower_bound")}(d.embedding, ${query})`;
    const aliases = (table) => v.keys.map((_, i) => `${table}.${keyAlias(i)}`).join(", ");
    const exact = `SELECT ${keyColumns(v, "d")}, d.chunk_index, d.chunk, ${distance} AS distance FROM ${v.destination} d`;
    const key = aliasedKeyObject(v, "t");
    return `WITH q AS (SELECT translate($1::text, '[]', '{}')::real[] AS embedding),
bounds AS (SELECT d.ctid AS svc_ctid, ${bound} AS bound FROM ${v.destination} d ORDER BY bound LIMIT $2::integer * 10),
near AS (${exact} WHERE d.ctid OPERATOR(pg_catalog.=) ANY (ARRAY(SELECT b.svc_ctid FROM bounds b))),
enough AS (SELECT count(DISTINCT ROW(${aliases("n")})) FILTER (WHERE n.distance < (SELECT max(b.bound) FROM bounds b)) >= $2::integer AS yes FROM near n),
candidates AS (
  SELECT n.* FROM near n WHERE (SELECT e.yes FROM enough e)
  UNION ALL
  ${exact} WHERE NOT (SELECT e.yes FROM enough e)
)
SELECT ${key} AS key, t.chunk_index, t.chunk, t.distance FROM (
  SELECT b.* FROM (
    SELECT DISTINCT ON (${aliases("c")}) c.* FROM candidates c ORDER BY ${aliases("c")}, c.distance, c.chunk_index
  ) b ORDER BY b.distance FETCH FIRST ($2::integer) ROWS WITH TIES
) t ORDER BY t.distance, key LIMIT $2::integer`;
  }

  // src/extension/vectorizer.ts
  var NAME = /^[a-z_][a-z0-9_]{0,39}$/;
  var SEARCH_MAX_K = 1e3;
  var MAX_COLUMNS = 50;
  var HNSW_MAX_DIMENSIONS = 2e3;
  var extensionSchema = (name) => one(QUERIES.extensionSchema, name)?.schema ?? null;
  var sessionRole = () => one(QUERIES.sessionRole);
  function checkedName(fn, name) {
    const n = text(fn, "name", name);
    if (!NAME.test(n)) throw parameterError(fn, "name", `must be a lower-case identifier of at most 40 characters ([a-z_][a-z0-9_]*; got "${n}")`);
    return n;
  }
  function checkedChunking(fn, by, size, overlap, separators) {
    const list = array(fn, "separators", separators, { maxItems: MAX_SEPARATORS, allowEmpty: true }).map((item, i) => {
      if (typeof item !== "string") throw parameterError(fn, itemName("separators", i), "must not be NULL", {}, SQLSTATE.null_value_not_allowed);
      return item;
    });
    const chunking = { by: text(fn, "chunk_by", by), size: integerInRange(fn, "chunk_size", size, 1, MAX_CHUNK_SIZE), overlap: integerInRange(fn, "chunk_overlap", overlap, 0, MAX_CHUNK_SIZE - 1), separators: list };
    const problem = declarationProblem(chunking);
    if (problem === void 0) return chunking;
    const field = /^(by|size|overlap|separators)\b/.exec(problem)?.[1];
    const parameter = field === void 0 ? "chunking" : field === "separators" ? "separators" : `chunk_${field}`;
    throw parameterError(fn, parameter, problem.replace(/^(by|size|overlap|separators)\s*/, "").replace(/\b(size|overlap)\b/g, "chunk_$1"));
  }
  function declaration(source, columnName, name, model, chunkBy, chunkSize, chunkOverlap, separators, format, destination, dimensions, batchSize, index) {
    const fn = "svc_vectorize";
    const given2 = { source, column_name: columnName, name, chunk_by: chunkBy, chunk_size: chunkSize, chunk_overlap: chunkOverlap, separators, format, batch_size: batchSize, index };
    for (const [parameter, value] of Object.entries(given2)) {
      if (value === null || value === void 0) throw parameterError(fn, parameter, "must not be NULL", {}, SQLSTATE.null_value_not_allowed);
    }
    const relation = one(QUERIES.relation, String(source));
    if (!relation) throw parameterError(fn, "source", `names no relation (${String(source)})`, {}, SQLSTATE.undefined_table);
    const sourceOid = relation.oid;
    const sourceName = qualified(relation.schema, relation.name);
    if (relation.kind !== "r") throw parameterError(fn, "source", `must be an ordinary table (${sourceName} is ${relationKind(relation.kind)})`, {}, SQLSTATE.wrong_object_type);
    const column = text(fn, "column_name", columnName);
    const columns = new Map(rows(QUERIES.tableColumns, sourceOid).map((c) => [c.name, c]));
    const embedded = columns.get(column);
    if (!embedded) throw parameterError(fn, "column_name", `"${column}" is no column of ${sourceName}`, {}, SQLSTATE.undefined_column);
    if (embedded.category !== "S") throw parameterError(fn, "column_name", `must be a text column ("${column}" is ${embedded.type})`, {}, SQLSTATE.datatype_mismatch);
    const keys2 = rows(QUERIES.primaryKey, sourceOid);
    if (keys2.length === 0) throw parameterError(fn, "source", `must have a primary key (${sourceName} has none): chunks are kept per source row`, {}, SQLSTATE.object_not_in_prerequisite_state);
    const untrusted = keys2.find((k) => !k.trusted);
    if (untrusted) {
      throw parameterError(fn, "source", `has a primary key column "${untrusted.name}" of type ${untrusted.type}: a vectorizer's key columns must be of base types or enums (or domains over them, stored as their base type), whose input and comparison run no role's function`, {}, SQLSTATE.feature_not_supported);
    }
    if (keys2.length > MAX_COLUMNS) throw parameterError(fn, "source", `must have a primary key of at most ${MAX_COLUMNS} columns (has ${keys2.length})`, {}, SQLSTATE.program_limit_exceeded);
    const clash = keys2.find((k) => DESTINATION_COLUMNS.includes(k.name));
    if (clash) throw parameterError(fn, "source", `has a primary key column named "${clash.name}", which the destination uses for itself (chunk_index, chunk, embedding)`, {}, SQLSTATE.object_not_in_prerequisite_state);
    const vectorizerName = checkedName(fn, name);
    const template2 = text(fn, "format", format);
    const templateError = templateProblem(template2);
    if (templateError) throw parameterError(fn, "format", templateError);
    const fields = templateFields(template2);
    if (fields.length > MAX_COLUMNS) throw parameterError(fn, "format", `may refer to at most ${MAX_COLUMNS} columns (refers to ${fields.length})`, {}, SQLSTATE.program_limit_exceeded);
    const missing2 = fields.find((f) => !columns.has(f));
    if (missing2 !== void 0) throw parameterError(fn, "format", `refers to $${missing2}, which is no column of ${sourceName}`, {}, SQLSTATE.undefined_column);
    const chunking = checkedChunking(fn, chunkBy, chunkSize, chunkOverlap, separators);
    const rendered = chunking.by === "characters" ? renderedLengthWithoutFields(template2, chunking.size) : 0;
    if (rendered > MAX_RENDERED_CHARS) {
      throw parameterError(fn, "format", `makes a text of at least ${rendered} characters of a chunk of chunk_size ${chunking.size}, more than the ${MAX_RENDERED_CHARS} a vectorizer embeds`);
    }
    const modelName = model === null || model === void 0 ? requestModel(fn, "embed") : text(fn, "model", model);
    const declared = one(QUERIES.modelServes, modelName);
    const serves = declared?.serves;
    if (!serves) throw parameterError(fn, "model", `"${modelName}" is not declared in svc_models`, { hint: `Start a worker with --model ${modelName}=PATH, or declare it with svc_model_declare.` });
    if (!serves.includes("embed")) throw parameterError(fn, "model", `"${modelName}" does not serve embed (it serves ${serves.join(", ")})`);
    const givenDims = dimensions === null || dimensions === void 0 ? null : integerInRange(fn, "dimensions", dimensions, 1, 16e3);
    if (givenDims !== null && declared?.dimension != null && givenDims !== declared.dimension) {
      throw parameterError(fn, "dimensions", `must be the length of "${modelName}"'s embeddings, ${declared.dimension} (got ${givenDims}): pass ${declared.dimension}, or NULL for the model's`);
    }
    const dims = givenDims ?? (declared?.dimension != null ? Number(declared.dimension) : null);
    const batch = integerInRange(fn, "batch_size", batchSize, 1, 1e3);
    const indexKind = text(fn, "index", index);
    if (indexKind !== "hnsw" && indexKind !== "none") throw parameterError(fn, "index", `must be 'hnsw' or 'none' (got "${indexKind}")`);
    const target = destinationName(fn, destination, relation.schema, vectorizerName);
    const vectorSchema = extensionSchema("vector");
    const embeddingType = vectorSchema === null ? "real[]" : `${qualified(vectorSchema, "vector")}${dims === null ? "" : `(${dims})`}`;
    const role = sessionRole();
    checkPrivileges(fn, role.role, relation, [.../* @__PURE__ */ new Set([...keys2.map((k) => k.name), column, ...fields])], target.schema);
    if (one(QUERIES.vectorizerExists, vectorizerName)) throw parameterError(fn, "name", `"${vectorizerName}" is taken: a vectorizer of that name exists`, {}, SQLSTATE.duplicate_object);
    if (one(QUERIES.relationByName, target.schema, target.name)) {
      throw parameterError(fn, "destination", `${qualified(target.schema, target.name)} exists: svc creates the destination (drop it, or name another)`, {}, SQLSTATE.duplicate_table);
    }
    return {
      name: vectorizerName,
      role,
      source: relation,
      column,
      keys: keys2.map(({ name: name2, type, storage }) => ({ name: name2, type, storage })),
      fields,
      format: template2,
      chunking,
      model: modelName,
      destination: target,
      embeddingType,
      vectorSchema,
      dimensions: dims,
      batchSize: batch,
      hnsw: indexKind === "hnsw" && vectorSchema !== null && dims !== null && dims <= HNSW_MAX_DIMENSIONS
    };
  }
  var relationKind = (kind) => ({ v: "a view", m: "a materialized view", p: "a partitioned table", f: "a foreign table", S: "a sequence", i: "an index", c: "a composite type", t: "a TOAST table" })[kind] ?? `of kind ${kind}`;
  function destinationName(fn, destination, sourceSchema, vectorizer) {
    if (destination === null || destination === void 0) return { schema: sourceSchema, name: `${vectorizer}_chunks` };
    const text3 = text(fn, "destination", destination);
    let parts;
    try {
      parts = one(QUERIES.parseIdent, text3).parts;
    } catch (error) {
      if (!isDataException(error)) throw error;
      throw parameterError(fn, "destination", `must be a table name, optionally schema-qualified (got "${text3}")`, {}, SQLSTATE.invalid_name);
    }
    if (parts.length > 2) throw parameterError(fn, "destination", `must be a table name, optionally schema-qualified (got "${text3}")`, {}, SQLSTATE.invalid_name);
    if (parts.length === 1) return { schema: sourceSchema, name: parts[0] };
    if (!one(QUERIES.schemaExists, parts[0])) throw parameterError(fn, "destination", `names a schema that does not exist ("${parts[0]}")`, {}, SQLSTATE.invalid_schema_name);
    return { schema: parts[0], name: parts[1] };
  }
  function checkPrivileges(fn, role, source, columns, destinationSchema) {
    const denied = one(QUERIES.vectorizerPrivileges, role, source.oid, columns, destinationSchema);
    const table = qualified(source.schema, source.name);
    if (denied.select !== null) throw parameterError(fn, "source", `must be readable by role ${role}: it may not read column "${denied.select}" of ${table}`, {}, SQLSTATE.insufficient_privilege);
    if (!denied.trigger) throw parameterError(fn, "source", `must allow role ${role} to create triggers on ${table} (the TRIGGER privilege): its changes are queued by triggers`, {}, SQLSTATE.insufficient_privilege);
    if (!denied.create || !denied.usage) throw parameterError(fn, "destination", `must be in a schema where role ${role} may create tables ("${destinationSchema}")`, {}, SQLSTATE.insufficient_privilege);
    if (source.row_security && (!source.owner_is_role || source.force_row_security)) {
      throw parameterError(fn, "source", `has row-level security that applies to role ${role}: a vectorizer sees every row written, which its policies would hide`, {}, SQLSTATE.feature_not_supported);
    }
  }
  function shape(id, d, svcSchema) {
    return {
      id,
      svcSchema,
      proxy: proxyRoleName(d.role.oid),
      source: qualified(d.source.schema, d.source.name),
      destination: qualified(d.destination.schema, d.destination.name),
      keys: d.keys,
      column: d.column,
      fields: d.fields,
      embeddingType: d.embeddingType,
      dimensions: d.dimensions
    };
  }
  function vectorize(source, columnName, name, model, chunkBy, chunkSize, chunkOverlap, separators, format, destination, dimensions, batchSize, index) {
    one(QUERIES.tablesAsMade, "svc_vectorize");
    const d = declaration(source, columnName, name, model, chunkBy, chunkSize, chunkOverlap, separators, format, destination, dimensions, batchSize, index);
    const svcSchema = extensionSchema("svc");
    const proxy = proxyRoleName(d.role.oid);
    if (!one(QUERIES.roleExists, proxy)) {
      run(`CREATE ROLE ${quoteIdent(proxy)} NOLOGIN INHERIT`);
      run(`GRANT ${quoteIdent(d.role.role)} TO ${quoteIdent(proxy)}`);
    }
    if (one(QUERIES.mayCreateIn, proxy, svcSchema, d.role.role)?.may) {
      throw parameterError("svc_vectorize", "source", `cannot be vectorized for role ${d.role.role}: it may create objects in svc's schema "${svcSchema}", where svc keeps the functions that run as it`, {}, SQLSTATE.insufficient_privilege);
    }
    const target = qualified(d.destination.schema, d.destination.name);
    const draft = shape(0, d, svcSchema);
    run(destinationTable(draft));
    run(`ALTER TABLE ${target} OWNER TO svc_owner`);
    run(`GRANT SELECT ON ${target} TO ${quoteIdent(d.role.role)} WITH GRANT OPTION`);
    run(`GRANT USAGE ON SCHEMA ${quoteIdent(d.destination.schema)} TO svc_owner`);
    if (d.hnsw && d.vectorSchema !== null) run(`CREATE INDEX ON ${target} USING hnsw (embedding ${qualified(d.vectorSchema, "vector_cosine_ops")})`);
    const { id } = one(
      QUERIES.vectorizerInsert,
      d.name,
      d.role.oid,
      d.source.oid,
      d.column,
      d.keys.map((k) => k.name),
      d.format,
      JSON.stringify(d.chunking),
      d.model,
      target,
      d.vectorSchema === null ? "real[]" : "vector",
      d.batchSize
    );
    const s = { ...draft, id };
    run(gateFunction(s));
    const gate = signature(svcSchema, id, "gate");
    run(`ALTER FUNCTION ${gate} OWNER TO svc_owner`);
    run(`REVOKE ALL ON FUNCTION ${gate} FROM PUBLIC`);
    run(`GRANT EXECUTE ON FUNCTION ${gate} TO ${quoteIdent(proxy)}`);
    for (const [fn, sql] of [["changed", triggerFunction(s)], ["backfill", backfillFunction(s)]]) {
      run(sql);
      run(`REVOKE ALL ON FUNCTION ${signature(svcSchema, id, fn)} FROM PUBLIC`);
      run(`ALTER FUNCTION ${signature(svcSchema, id, fn)} OWNER TO ${quoteIdent(proxy)}`);
    }
    for (const fn of ["gate", "changed"]) run(`ALTER EXTENSION svc ADD FUNCTION ${signature(svcSchema, id, fn)}`);
    for (const statement of triggers(s, d.name)) run(statement);
    const backfill = signature(svcSchema, id, "backfill");
    const settings = run(SETTINGS_SNAPSHOT)[0].settings;
    const queued = Number(run(`SELECT ${backfill} AS queued`)[0].queued);
    run(SETTINGS_RESTORE, settings);
    run(`DROP FUNCTION ${backfill}`);
    return queued;
  }
  function ownVectorizer(fn, name, query = QUERIES.vectorizerOfSession) {
    const n = text(fn, "name", name);
    const found = one(query, n);
    if (!found) throw parameterError(fn, "name", `"${n}" is no vectorizer of role ${sessionRole().role}`, {}, SQLSTATE.undefined_object);
    return found;
  }
  function vectorizeDrop(name, dropDestination) {
    const fn = "svc_vectorize_drop";
    one(QUERIES.tablesAsMade, fn);
    const keepDestination = !boolean(fn, "drop_destination", dropDestination);
    const vz = ownVectorizer(fn, name, QUERIES.vectorizerToDrop);
    if (vz.source !== null) for (const event of TRIGGER_EVENTS) run(`DROP TRIGGER IF EXISTS ${quoteIdent(triggerName(vz.name, event))} ON ${vz.source}`);
    one(QUERIES.vectorizerLock, vz.id);
    one(QUERIES.vectorizerCancelJobs, vz.id);
    one(QUERIES.vectorizerDelete, vz.id);
    for (const { fn: fn2 } of rows(QUERIES.vectorizerFunctions, generatedPattern(vz.id))) {
      run(`ALTER EXTENSION svc DROP FUNCTION ${fn2}`);
      run(`DROP FUNCTION ${fn2}`);
    }
    if (vz.destination !== null) {
      if (!keepDestination) run(`DROP TABLE ${vz.destination}`);
      else run(`ALTER TABLE ${vz.destination} OWNER TO ${vz.owner !== null ? quoteIdent(vz.owner) : "CURRENT_USER"}`);
      if (vz.destination_schema != null && vz.destination_schema !== extensionSchema("svc") && !one(QUERIES.destinationInSchema, vz.destination_schema)) {
        run(`REVOKE USAGE ON SCHEMA ${quoteIdent(vz.destination_schema)} FROM svc_owner`);
      }
    }
    const proxy = proxyRoleName(vz.owner_id);
    const left = one(QUERIES.vectorizerOwnerLeft, vz.owner_id, proxy);
    if (Number(left.others) === 0) {
      if (one(QUERIES.roleExists, proxy)) {
        if (vz.owner !== null) run(`REASSIGN OWNED BY ${quoteIdent(proxy)} TO ${quoteIdent(vz.owner)}`);
        run(`DROP OWNED BY ${quoteIdent(proxy)}`);
        if (!left.elsewhere) run(`DROP ROLE ${quoteIdent(proxy)}`);
      }
    }
    return true;
  }
  function vectorizerEmbed(name, query) {
    const fn = "svc_vectorizer_embed";
    const text3 = text(fn, "query", query);
    const vz = ownVectorizer(fn, name);
    return JSON.parse(runOne(fn, prepareEmbed(fn, text3, true, vz.model)));
  }
  function search(name, query, k) {
    const fn = "svc_search";
    const n = text(fn, "name", name);
    text(fn, "query", query);
    const count = integerInRange(fn, "k", k, 1, SEARCH_MAX_K);
    const vz = one(QUERIES.vectorizerForSearch, n);
    if (!vz) throw parameterError(fn, "name", `"${n}" is no vectorizer of role ${sessionRole().role}`, {}, SQLSTATE.undefined_object);
    if (vz.destination === null) throw new SvcError(SQLSTATE.undefined_table, `${fn}: the destination of vectorizer "${n}" no longer exists`);
    const embedding = one(QUERIES.vectorizerEmbedding, n, query).embedding;
    const sql = searchQuery({
      destination: vz.destination,
      svcSchema: extensionSchema("svc"),
      keys: vz.key_columns.map((name2) => ({ name: name2 })),
      vectorSchema: vz.embedding_type === "vector" ? extensionSchema("vector") : null
    });
    return run(sql, `[${embedding.join(",")}]`, String(count));
  }

  // src/prompt/template.ts
  var TemplateError = class extends Error {
    constructor(code, message, variable) {
      super(message);
      __publicField(this, "code", code);
      __publicField(this, "variable", variable);
    }
  };
  var at2 = (p) => `line ${p.line}, column ${p.column}`;
  var FILTERS = {
    upper: { arg: "none" },
    lower: { arg: "none" },
    trim: { arg: "none" },
    length: { arg: "none" },
    default: { arg: "required" },
    join: { arg: "optional string" },
    truncate: { arg: "required count" }
  };
  var MAX_TRUNCATE = 1e6;
  var MAX_NESTING = 32;
  function positions(source) {
    const starts = [0];
    for (let i = source.indexOf("\n"); i !== -1; i = source.indexOf("\n", i + 1)) starts.push(i + 1);
    return (index) => {
      let lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = lo + hi + 1 >> 1;
        if (starts[mid] <= index) lo = mid;
        else hi = mid - 1;
      }
      return { line: lo + 1, column: index - starts[lo] + 1 };
    };
  }
  var CLOSE = { "{{": "}}", "{%": "%}", "{#": "#}" };
  var KIND = { "{{": "output", "{%": "block", "{#": "comment" };
  function tokenize(source) {
    const tokens = [];
    const positionOf = positions(source);
    let i = 0;
    while (i < source.length) {
      const open = /\{[{%#]/g;
      open.lastIndex = i;
      const m = open.exec(source);
      if (!m) {
        tokens.push({ kind: "text", text: source.slice(i) });
        break;
      }
      if (m.index > i) tokens.push({ kind: "text", text: source.slice(i, m.index) });
      const close = CLOSE[m[0]];
      const end = source.indexOf(close, m.index + 2);
      const pos = positionOf(m.index);
      if (end === -1) throw new TemplateError("syntax", `${m[0]} at ${at2(pos)} is not closed by ${close}`);
      const body = source.slice(m.index + 2, end).trim();
      if (KIND[m[0]] === "block" && body === "raw") {
        const raw2 = /\{%\s*endraw\s*%\}/g;
        raw2.lastIndex = end + 2;
        const r = raw2.exec(source);
        if (!r) throw new TemplateError("syntax", `{% raw %} at ${at2(pos)} has no {% endraw %}`);
        tokens.push(
          { kind: "block", body: "raw", at: pos },
          { kind: "text", text: source.slice(end + 2, r.index) },
          { kind: "block", body: "endraw", at: pos }
        );
        i = r.index + r[0].length;
        continue;
      }
      if (KIND[m[0]] === "block" && body === "endraw")
        throw new TemplateError("syntax", `{% endraw %} at ${at2(pos)} closes no {% raw %}`);
      tokens.push({ kind: KIND[m[0]], body, at: pos });
      i = end + 2;
    }
    return standalone(tokens);
  }
  function standalone(tokens) {
    const cuts = tokens.map(() => ({ head: 0, tail: 0 }));
    tokens.forEach((token, i) => {
      if (token.kind !== "block" && token.kind !== "comment") return;
      const before = tokens[i - 1];
      const after = tokens[i + 1];
      if (before && before.kind !== "text" || after && after.kind !== "text") return;
      const lead = before ? /(^|\n)([ \t]*)$/.exec(before.text) : void 0;
      const trail = after ? /^[ \t]*(\r?\n|$)/.exec(after.text) : void 0;
      if (before && (!lead || lead[1] === "" && i - 1 !== 0)) return;
      if (after && (!trail || trail[1] === "" && i + 1 !== tokens.length - 1)) return;
      if (lead) cuts[i - 1].tail = lead[2].length;
      if (trail) cuts[i + 1].head = trail[0].length;
    });
    tokens.forEach((token, i) => {
      if (token.kind === "text") token.text = token.text.slice(cuts[i].head, token.text.length - cuts[i].tail);
    });
    return tokens.filter((t) => t.kind !== "comment" && !(t.kind === "text" && t.text === ""));
  }
  var IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
  var SEGMENT = /^(?:[A-Za-z_][A-Za-z0-9_]*|0|[1-9][0-9]{0,8})$/;
  function parsePath(text3, pos, what) {
    const segments = text3.split(".");
    if (text3 === "" || !IDENT.test(segments[0]) || !segments.every((s) => SEGMENT.test(s))) {
      throw new TemplateError(
        "syntax",
        `${what} at ${at2(pos)} must be a variable name or a dotted path such as customer.name or items.0 (got '${text3}')`
      );
    }
    return { segments, text: text3, at: pos };
  }
  function parseArgument(text3) {
    const quoted = /^"((?:[^"\\]|\\.)*)"$|^'((?:[^'\\]|\\.)*)'$/.exec(text3);
    if (quoted) return (quoted[1] ?? quoted[2]).replace(/\\(.)/g, "$1");
    if (/^-?(?:0|[1-9][0-9]{0,8})$/.test(text3)) return Number(text3);
    return void 0;
  }
  function parseOutput(body, pos) {
    const pieces = [];
    let quote = "";
    let start2 = 0;
    for (let i = 0; i < body.length; i++) {
      const c = body[i];
      if (quote) {
        if (c === "\\") i++;
        else if (c === quote) quote = "";
      } else if (c === '"' || c === "'") quote = c;
      else if (c === "|") {
        pieces.push(body.slice(start2, i).trim());
        start2 = i + 1;
      }
    }
    pieces.push(body.slice(start2).trim());
    const [pathText, ...filterTexts] = pieces;
    const path = parsePath(pathText, pos, "{{ }}");
    const filters = filterTexts.map((text3) => {
      const m = /^([A-Za-z_][A-Za-z0-9_]*)\s*(?:\(\s*(.*?)\s*\))?$/s.exec(text3);
      const names = Object.keys(FILTERS).join(", ");
      if (!m)
        throw new TemplateError(
          "syntax",
          `filter '${text3}' at ${at2(pos)} must read name or name(argument) (filters: ${names})`
        );
      const name = m[1];
      if (!Object.prototype.hasOwnProperty.call(FILTERS, name))
        throw new TemplateError("syntax", `unknown filter '${name}' at ${at2(pos)} (filters: ${names})`);
      const rule = FILTERS[name].arg;
      const given2 = m[2] !== void 0 && m[2] !== "";
      if (rule === "none") {
        if (m[2] !== void 0) throw new TemplateError("syntax", `filter '${name}' at ${at2(pos)} takes no argument`);
        return { name, at: pos };
      }
      if (!given2) {
        if (rule === "optional string") return { name, at: pos };
        throw new TemplateError(
          "syntax",
          `filter '${name}' at ${at2(pos)} needs an argument: ${name}(${rule === "required count" ? "40" : '"text"'})`
        );
      }
      const arg = parseArgument(m[2]);
      if (arg === void 0)
        throw new TemplateError(
          "syntax",
          `filter '${name}' at ${at2(pos)}: its argument must be a quoted string or an integer (got '${m[2]}')`
        );
      if (rule === "optional string" && typeof arg !== "string")
        throw new TemplateError(
          "syntax",
          `filter '${name}' at ${at2(pos)}: its argument must be a quoted string (got ${arg})`
        );
      if (rule === "required count" && (typeof arg !== "number" || arg < 0 || arg > MAX_TRUNCATE)) {
        throw new TemplateError(
          "syntax",
          `filter '${name}' at ${at2(pos)}: its argument must be an integer from 0 to ${MAX_TRUNCATE} (got ${m[2]})`
        );
      }
      return { name, arg, at: pos };
    });
    return { path, filters };
  }
  function parseTest(expr, pos, tag) {
    const m = /^not\s+(.*)$/.exec(expr);
    return { test: parsePath(m ? m[1].trim() : expr, pos, `{% ${tag} %}`), negate: m !== null };
  }
  function parseTemplate2(source) {
    const root = { tag: "root", nodes: [] };
    const stack = [root];
    const top = () => stack[stack.length - 1];
    const variables = [];
    const use = (path, locals2) => {
      const name = path.segments[0];
      if (!locals2.includes(name) && !variables.includes(name)) variables.push(name);
    };
    const locals = () => stack.flatMap((f) => f.tag === "for" ? [f.name, "loop"] : []);
    const push = (frame) => {
      if (stack.length > MAX_NESTING)
        throw new TemplateError("syntax", `blocks nest deeper than ${MAX_NESTING} at ${at2(frame.at)}`);
      stack.push(frame);
    };
    for (const token of tokenize(source)) {
      if (token.kind === "text") {
        top().nodes.push({ kind: "text", text: token.text });
        continue;
      }
      if (token.kind === "comment") continue;
      if (token.kind === "output") {
        const { path, filters } = parseOutput(token.body, token.at);
        use(path, locals());
        top().nodes.push({ kind: "output", path, filters });
        continue;
      }
      const [word, ...rest] = token.body.split(/\s+/);
      const expr = rest.join(" ");
      const frame = top();
      if (word === "raw" || word === "endraw") continue;
      switch (word) {
        case "if": {
          const { test, negate } = parseTest(expr, token.at, "if");
          use(test, locals());
          const body = [];
          push({ tag: "if", at: token.at, nodes: body, branches: [{ test, negate, body }] });
          break;
        }
        case "elif": {
          if (frame.tag !== "if" || frame.otherwise)
            throw new TemplateError(
              "syntax",
              `{% elif %} at ${at2(token.at)} is not inside an {% if %} before its {% else %}`
            );
          const { test, negate } = parseTest(expr, token.at, "elif");
          use(test, locals());
          frame.nodes = [];
          frame.branches.push({ test, negate, body: frame.nodes });
          break;
        }
        case "else": {
          if (frame.tag !== "if" || frame.otherwise || expr !== "")
            throw new TemplateError(
              "syntax",
              `{% else %} at ${at2(token.at)} is not inside an {% if %}, or comes twice, or has words after it`
            );
          frame.nodes = frame.otherwise = [];
          break;
        }
        case "endif": {
          if (frame.tag !== "if" || expr !== "")
            throw new TemplateError("syntax", `{% endif %} at ${at2(token.at)} closes no {% if %}`);
          stack.pop();
          top().nodes.push({ kind: "if", branches: frame.branches, otherwise: frame.otherwise ?? [] });
          break;
        }
        case "for": {
          const m = /^([A-Za-z_][A-Za-z0-9_]*)\s+in\s+(\S+)$/.exec(expr);
          if (!m)
            throw new TemplateError(
              "syntax",
              `{% for %} at ${at2(token.at)} must read {% for item in list %} (got '{% ${token.body} %}')`
            );
          if (m[1] === "loop")
            throw new TemplateError(
              "syntax",
              `{% for %} at ${at2(token.at)}: 'loop' is the loop's own variable (loop.index, loop.first, loop.last); name the item otherwise`
            );
          const list = parsePath(m[2], token.at, "{% for %}");
          use(list, locals());
          push({ tag: "for", at: token.at, nodes: [], name: m[1], list });
          break;
        }
        case "endfor": {
          if (frame.tag !== "for" || expr !== "")
            throw new TemplateError("syntax", `{% endfor %} at ${at2(token.at)} closes no {% for %}`);
          stack.pop();
          top().nodes.push({ kind: "for", name: frame.name, list: frame.list, body: frame.nodes });
          break;
        }
        default:
          throw new TemplateError(
            "syntax",
            `unknown tag {% ${word} %} at ${at2(token.at)} (tags: if, elif, else, endif, for, endfor, raw, endraw)`
          );
      }
    }
    if (stack.length > 1) {
      const open = top();
      throw new TemplateError("syntax", `{% ${open.tag} %} at ${at2(open.at)} is not closed by {% end${open.tag} %}`);
    }
    return { nodes: root.nodes, variables };
  }
  var own = (value, key) => typeof value === "object" && value !== null && Object.prototype.hasOwnProperty.call(value, key);
  function lookup(path, variables, scope) {
    const [first, ...rest] = path.segments;
    let value;
    const local = [...scope].reverse().find(([name]) => name === first);
    if (local) value = local[1];
    else if (own(variables, first) && !Array.isArray(variables)) value = variables[first];
    else return void 0;
    for (const segment of rest) {
      if (Array.isArray(value) ? !/^[0-9]+$/.test(segment) || Number(segment) >= value.length : !own(value, segment))
        return void 0;
      value = value[segment];
    }
    return value;
  }
  var truthy = (v) => !(v === void 0 || v === null || v === false || v === "" || v === 0 || Array.isArray(v) && v.length === 0 || typeof v === "object" && v !== null && Object.keys(v).length === 0);
  var text2 = (v) => typeof v === "string" ? v : JSON.stringify(v);
  var kindOf = (v) => v === null ? "null" : Array.isArray(v) ? "an array" : typeof v === "object" ? "an object" : `a ${typeof v}`;
  function firstCharacters(s, n) {
    let units = 0;
    for (let count = 0; count < n && units < s.length; count++) {
      const c = s.charCodeAt(units);
      units += c >= 55296 && c <= 56319 && units + 1 < s.length ? 2 : 1;
    }
    return s.slice(0, units);
  }
  var characters = (s) => s.length - (s.match(/[\ud800-\udbff][\udc00-\udfff]/g)?.length ?? 0);
  function renderTemplate(template2, variables, {
    maxChars = 1e6,
    maxSteps = 1e7,
    strict = true
  } = {}) {
    const out = [];
    let length = 0;
    let steps = 0;
    const step = () => {
      if (++steps > maxSteps)
        throw new TemplateError("too-large", `rendering takes more than ${maxSteps} steps (loops inside loops)`);
    };
    const emit = (s) => {
      length += s.length;
      if (length > maxChars) throw new TemplateError("too-large", `the rendered prompt passes ${maxChars} characters`);
      out.push(s);
    };
    const run3 = (nodes, scope) => {
      for (const node of nodes) {
        step();
        switch (node.kind) {
          case "text":
            emit(node.text);
            break;
          case "output": {
            let v = lookup(node.path, variables, scope);
            for (const filter of node.filters) {
              if (filter.name === "default") {
                if (v === void 0 || v === null) v = filter.arg;
                continue;
              }
              if (v !== void 0 && v !== null) v = applyFilter(filter, v, node.path);
            }
            if (v === void 0 || v === null) {
              if (strict) throw missing(node.path, v);
              break;
            }
            emit(text2(v));
            break;
          }
          case "if": {
            const branch = node.branches.find((b) => truthy(lookup(b.test, variables, scope)) !== b.negate);
            run3(branch ? branch.body : node.otherwise, scope);
            break;
          }
          case "for": {
            const list = lookup(node.list, variables, scope);
            if ((list === void 0 || list === null) && !strict) break;
            if (list === void 0 || list === null) throw missing(node.list, list);
            if (!Array.isArray(list)) {
              throw new TemplateError(
                "not-a-list",
                `'${node.list.text}' must be an array to loop over (is ${kindOf(list)}; {% for %} at ${at2(node.list.at)})`,
                node.list.text
              );
            }
            list.forEach((item, i) => {
              step();
              const loop = { index: i + 1, index0: i, first: i === 0, last: i === list.length - 1, length: list.length };
              run3(node.body, [...scope, [node.name, item], ["loop", loop]]);
            });
            break;
          }
        }
      }
    };
    run3(template2.nodes, []);
    return out.join("");
  }
  function applyFilter(filter, v, path) {
    switch (filter.name) {
      case "upper":
        return text2(v).toUpperCase();
      case "lower":
        return text2(v).toLowerCase();
      case "trim":
        return text2(v).trim();
      case "length":
        return Array.isArray(v) ? v.length : typeof v === "object" && v !== null ? Object.keys(v).length : characters(text2(v));
      case "truncate":
        return firstCharacters(text2(v), filter.arg);
      case "join":
        if (!Array.isArray(v)) {
          throw new TemplateError(
            "not-a-list",
            `'${path.text}' must be an array to join (is ${kindOf(v)}; filter join at ${at2(filter.at)})`,
            path.text
          );
        }
        return v.map(text2).join(filter.arg ?? "");
      case "default":
        return v;
    }
  }
  function missing(path, value) {
    return new TemplateError(
      "missing-variable",
      `'${path.text}' is ${value === null ? "null" : "missing"} (used at ${at2(path.at)})`,
      path.text
    );
  }

  // src/extension/prompts.ts
  var NAME2 = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,62}$/;
  function promptName(fn, value) {
    const name = text(fn, "name", value, { maxChars: 63 });
    if (!NAME2.test(name)) throw parameterError(fn, "name", `must be 1 to 63 letters, digits, ".", "_", ":" or "-", starting with a letter or digit (got '${name}')`);
    return name;
  }
  function metadata(fn, value) {
    if (value === null || value === void 0) return null;
    if (typeof value !== "object" || Array.isArray(value)) {
      throw parameterError(fn, "metadata", `must be a JSON object (got ${Array.isArray(value) ? "an array" : `a ${typeof value}`})`);
    }
    jsonNesting(fn, "metadata", value, LIMITS.schemaMaxNesting);
    const json = JSON.stringify(value);
    if (json.length > LIMITS.promptDescriptionMaxChars) {
      throw parameterError(fn, "metadata", `must be at most ${LIMITS.promptDescriptionMaxChars} characters as JSON (got ${json.length})`);
    }
    return value;
  }
  function description(fn, value) {
    if (value === null || value === void 0) return null;
    return text(fn, "description", value, { allowEmpty: true, maxChars: LIMITS.promptDescriptionMaxChars });
  }
  function template(fn, value) {
    const source = text(fn, "template", value, { maxChars: LIMITS.promptTemplateMaxChars });
    try {
      return { source, parsed: parseTemplate2(source) };
    } catch (error) {
      if (error instanceof TemplateError) throw parameterError(fn, "template", `is not a valid template: ${error.message}`);
      throw error;
    }
  }
  function promptCreate(name, templateText, descriptionText, metadataValue) {
    const fn = "svc_prompt_create";
    const n = promptName(fn, name);
    const t = template(fn, templateText);
    const row = one(QUERIES.promptInsertFirst, n, t.source, description(fn, descriptionText), t.parsed.variables, metadata(fn, metadataValue));
    if (!row) {
      const latest = one(QUERIES.promptLatestVersion, n)?.version;
      throw new SvcError(SQLSTATE.duplicate_object, `${fn}: you already have a prompt named '${n}' (latest version ${latest})`, {
        hint: "svc_prompt_update(name, template) makes its next version."
      });
    }
    return row.version;
  }
  function promptUpdate(name, templateText, descriptionText, metadataValue) {
    const fn = "svc_prompt_update";
    const n = promptName(fn, name);
    const t = template(fn, templateText);
    const d = description(fn, descriptionText);
    const m = metadata(fn, metadataValue);
    if (!one(QUERIES.promptLock, n)) throw notFound(fn, n, null);
    return one(QUERIES.promptInsertNext, n, t.source, d, t.parsed.variables, m).version;
  }
  function promptRender(name, variables, version, strict) {
    const fn = "svc_prompt_render";
    const n = promptName(fn, name);
    if (strict === null || strict === void 0) throw parameterError(fn, "strict", "must not be NULL", {}, SQLSTATE.null_value_not_allowed);
    if (variables === null || variables === void 0) throw parameterError(fn, "variables", "must not be NULL", {}, SQLSTATE.null_value_not_allowed);
    if (typeof variables !== "object" || Array.isArray(variables)) {
      throw parameterError(fn, "variables", `must be a JSON object of the template's variables (got ${Array.isArray(variables) ? "an array" : `a ${typeof variables}`})`);
    }
    jsonNesting(fn, "variables", variables, LIMITS.schemaMaxNesting);
    const wanted = version === null || version === void 0 ? null : integerInRange(fn, "version", version, 1, 2147483647);
    const row = one(QUERIES.promptVersion, n, wanted);
    if (!row) throw notFound(fn, n, wanted);
    try {
      return renderTemplate(parseTemplate2(row.template), variables, { maxChars: LIMITS.promptMaxChars, strict: strict === true });
    } catch (error) {
      if (!(error instanceof TemplateError)) throw error;
      const where = `prompt '${n}' version ${row.version}`;
      if (error.code === "too-large") throw new SvcError(SQLSTATE.program_limit_exceeded, `${fn}: ${where}: ${error.message}`);
      throw parameterError(fn, "variables", `must give what ${where} reads: ${error.message}`);
    }
  }
  function notFound(fn, name, version) {
    return parameterError(fn, "name", `'${name}' is no prompt of yours${version === null ? "" : ` with a version ${version}`}`, { hint: "svc_prompt_list() lists your prompts." }, SQLSTATE.undefined_object);
  }

  // src/extension/summarize.ts
  var FN = "svc_summarize";
  var SEPARATOR = "\n\n";
  var mapPrompt = (text3) => `${text3}

Summarize the text above.
Summary:`;
  var reducePrompt = (parts) => `${parts.map((part, i) => `Summary ${i + 1}: ${part}`).join("\n")}

Combine the summaries above into one summary.
Summary:`;
  function utf8Length(text3) {
    let bytes = 0;
    for (let i = 0; i < text3.length; i++) {
      const c = text3.charCodeAt(i);
      bytes += c < 128 ? 1 : c < 2048 ? 2 : c >= 55296 && c <= 56319 ? 4 : c >= 56320 && c <= 57343 ? 0 : 3;
    }
    return bytes;
  }
  var measure = (state, text3) => state.unit === "bytes" ? utf8Length(text3) : text3.length;
  function unitsWithin(text3, bytes) {
    let used = 0;
    let i = 0;
    while (i < text3.length) {
      const wide = text3.charCodeAt(i) >= 55296 && text3.charCodeAt(i) <= 56319;
      const next = utf8Length(text3.slice(i, wide ? i + 2 : i + 1));
      if (used + next > bytes) break;
      used += next;
      i += wide ? 2 : 1;
    }
    return i;
  }
  function cutPoint(text3, size, unit = "characters") {
    const limit = unit === "bytes" ? unitsWithin(text3, size) : Math.min(size, text3.length);
    if (limit >= text3.length) return text3.length;
    const space = text3.slice(0, limit).search(/\s\S*$/);
    if (space >= limit - Math.floor(limit / 10) && space > 0) return space + 1;
    const code = text3.charCodeAt(limit - 1);
    return code >= 55296 && code <= 56319 ? limit - 1 : limit;
  }
  function generate2(state, prompt) {
    try {
      return runOne(FN, prepareGenerate(FN, prompt, { maxTokens: state.max_tokens, useCache: true, seed: state.seed })).trim();
    } catch (error) {
      if (error instanceof SvcError && / tokens, over the \d+ a context of /.test(error.message)) {
        const sized = state.unit === "characters" ? `svc.summarize_chunk_size (${state.chunk} characters)` : `the serving model's context (a chunk of ${state.chunk} bytes)`;
        throw new SvcError(error.sqlerrcode, `${FN}: a chunk sized by ${sized} makes a prompt over the model's context: ${error.message.replace(/^svc_summarize: /, "")}`, {
          hint: state.unit === "characters" ? "Lower svc.summarize_chunk_size, or RESET it: unset, chunks are cut to fit the serving model's context." : void 0
        });
      }
      throw error;
    }
  }
  var PROMPT_WORDS = 128;
  var fits = (state, parts) => measure(state, reducePrompt(parts)) <= state.chunk + PROMPT_WORDS;
  function combineOldest(state) {
    let n = 2;
    while (n < state.parts.length && fits(state, state.parts.slice(0, n + 1))) n++;
    const half = Math.floor(state.chunk / 2);
    const group = fits(state, state.parts.slice(0, 2)) ? state.parts.slice(0, n) : state.parts.slice(0, 2).map((part) => part.slice(0, cutPoint(part, half, state.unit)));
    state.parts.splice(0, group.length, generate2(state, reducePrompt(group)));
  }
  function reduce(state) {
    while (state.parts.length > 1 && !fits(state, state.parts)) combineOldest(state);
  }
  function take(state, text3) {
    let rest = state.text === "" ? text3 : state.text + SEPARATOR + text3;
    while (measure(state, rest) >= state.chunk) {
      const cut = cutPoint(rest, state.chunk, state.unit);
      state.parts.push(generate2(state, mapPrompt(rest.slice(0, cut).trim())));
      reduce(state);
      rest = rest.slice(cut).trimStart();
    }
    state.text = rest;
  }
  var given = (value, fallback) => value === void 0 ? fallback : value;
  function chunkBytes(context, maxTokens2, systemPrompt) {
    const tokens = context ?? 512;
    const answer = Math.min(maxTokens2, Math.floor(tokens / 4));
    const template2 = 64 + (systemPrompt === null ? 0 : utf8Length(systemPrompt));
    return Math.max(64, tokens - 1 - answer - template2 - PROMPT_WORDS);
  }
  function start(maxTokens2, seed2, fn) {
    const max_tokens = maxTokens(fn, given(maxTokens2, 512));
    const explicit = settingValue("svc.summarize_chunk_size") !== null;
    return {
      chunk: explicit ? integerSetting("svc.summarize_chunk_size", 100) : chunkBytes(servingContext("generate"), max_tokens, settingValue("svc.system_prompt")),
      unit: explicit ? "characters" : "bytes",
      max_tokens,
      seed: seed(fn, given(seed2, 42)),
      text: "",
      parts: [],
      rows: 0
    };
  }
  function summaryOptions(fn, options) {
    if (options === null || options === void 0) throw parameterError(fn, "options", "must not be NULL", {}, SQLSTATE.null_value_not_allowed);
    if (typeof options !== "object" || Array.isArray(options)) throw parameterError(fn, "options", "must be a JSON object of max_tokens and seed");
    const known = ["max_tokens", "seed"];
    const unknown = Object.keys(options).find((key) => !known.includes(key));
    if (unknown !== void 0) throw parameterError(fn, "options", `has an unknown key "${unknown}" (known: ${known.join(", ")})`);
    const o = options;
    return {
      maxTokens: o.max_tokens === void 0 ? void 0 : integerInRange(fn, "options.max_tokens", o.max_tokens, LIMITS.maxTokens.min, LIMITS.maxTokens.max),
      seed: o.seed === void 0 ? void 0 : integerInRange(fn, "options.seed", o.seed, -2147483648, 2147483647)
    };
  }
  function summarizeStepOptions(state, body, options) {
    const { maxTokens: maxTokens2, seed: seed2 } = summaryOptions(FN, options);
    return summarizeStep(state, body, maxTokens2, seed2);
  }
  function summarizePartialStep(state, body, options) {
    const fn = "svc_summarize_partial";
    const { maxTokens: maxTokens2, seed: seed2 } = options === void 0 ? { maxTokens: void 0, seed: void 0 } : summaryOptions(fn, options);
    return summarizeStep(state, body, maxTokens2, seed2, fn);
  }
  function summarizeStep(state, body, maxTokens2, seed2, fn = FN) {
    const s = state ?? start(maxTokens2, seed2, fn);
    if (state) {
      for (const [name, value, was] of [["max_tokens", given(maxTokens2, 512), s.max_tokens], ["seed", given(seed2, 42), s.seed]]) {
        if (value !== was) throw new SvcError(SQLSTATE.invalid_parameter_value, `${fn}: ${name} must be the same for every row of a group (was ${was}, got ${String(value)})`);
      }
    }
    if (body === null || body === void 0) return state;
    const text3 = text(fn, "body", body, { allowEmpty: true });
    if (text3.trim() === "") return state;
    take(s, text3.trim());
    s.rows++;
    return s;
  }
  function summarizeCombine(a, b) {
    if (!a || !b) return a ?? b;
    if (a.max_tokens !== b.max_tokens || a.seed !== b.seed) {
      throw new SvcError(SQLSTATE.invalid_parameter_value, `${FN}: max_tokens and seed must be the same for every row of a group`);
    }
    const s = { ...a, parts: [...a.parts], rows: a.rows + b.rows };
    if (s.text !== "" && b.parts.length > 0) {
      s.parts.push(generate2(s, mapPrompt(s.text)));
      s.text = "";
    }
    s.parts.push(...b.parts);
    reduce(s);
    if (b.text !== "") take(s, b.text);
    return s;
  }
  function summarizeFinal(state) {
    if (!state || state.rows === 0) return null;
    const s = { ...state, parts: [...state.parts] };
    if (s.text !== "") s.parts.push(generate2(s, mapPrompt(s.text)));
    while (s.parts.length > 1) combineOldest(s);
    return s.parts[0];
  }
  var PARTIAL_FORMAT = "svc_summarize/1";
  function summarizePartial(state) {
    if (!state || state.rows === 0) return null;
    return { format: PARTIAL_FORMAT, ...state };
  }
  function storedPartial(fn, partial) {
    const bad = (why) => parameterError(fn, "partial", `is not a partial of svc_summarize_partial (${why})`);
    if (typeof partial !== "object" || partial === null || Array.isArray(partial)) throw bad("not a JSON object");
    const p = partial;
    if (p.format !== PARTIAL_FORMAT) throw bad(`its format is ${JSON.stringify(p.format)}, not "${PARTIAL_FORMAT}"`);
    const extra = Object.keys(p).find((key) => !["format", "chunk", "unit", "max_tokens", "seed", "text", "parts", "rows"].includes(key));
    if (extra !== void 0) throw bad(`unknown key "${extra}"`);
    if (p.unit !== "characters" && p.unit !== "bytes") throw bad('unit must be "characters" or "bytes"');
    if (!Number.isInteger(p.chunk) || p.chunk < 64 || p.chunk > LIMITS.promptMaxChars) throw bad(`chunk must be an integer from 64 to ${LIMITS.promptMaxChars}`);
    if (!Number.isInteger(p.rows) || p.rows < 1) throw bad("rows must be a positive integer");
    if (typeof p.text !== "string" || p.text.length > LIMITS.promptMaxChars) throw bad(`text must be a string of at most ${LIMITS.promptMaxChars} characters`);
    if (!Array.isArray(p.parts) || p.parts.length > 1e3 || !p.parts.every((part) => typeof part === "string" && part.length <= LIMITS.promptMaxChars)) {
      throw bad("parts must be an array of at most 1000 strings");
    }
    return {
      chunk: p.chunk,
      unit: p.unit,
      max_tokens: integerInRange(fn, "partial.max_tokens", p.max_tokens, LIMITS.maxTokens.min, LIMITS.maxTokens.max),
      seed: integerInRange(fn, "partial.seed", p.seed, -2147483648, 2147483647),
      text: p.text,
      parts: [...p.parts],
      rows: p.rows
    };
  }
  function summarizeMerge(state, partial) {
    if (partial === null || partial === void 0) return state;
    const fn = "svc_summarize_final";
    const next = storedPartial(fn, partial);
    if (state && (state.max_tokens !== next.max_tokens || state.seed !== next.seed)) {
      throw parameterError(
        fn,
        "partial",
        `must have the max_tokens and seed of the partials before it (max_tokens ${state.max_tokens}, seed ${state.seed}; got max_tokens ${next.max_tokens}, seed ${next.seed})`
      );
    }
    return summarizeCombine(state, next);
  }

  // src/extension/stream.ts
  var FN2 = "svc_generate_stream";
  var submitted = /* @__PURE__ */ new Map();
  function streamStart(prompt, ...g) {
    const job = prepareGenerate(FN2, prompt, generationArgs(g));
    const ctx = syncContext();
    if (ctx.isolation !== "read committed") {
      throw new SvcError(SQLSTATE.feature_not_supported, `${FN2}: runs under READ COMMITTED only (this transaction is ${ctx.isolation.toUpperCase()}, whose snapshot never shows the text as it comes)`, {
        hint: "Call it in a READ COMMITTED transaction, or svc_generate for the whole text."
      });
    }
    if (job.parameters.use_cache === true) {
      const hit = one(QUERIES.cacheGet, cacheIdentity(job.functionName, job.parameters), modelOf(job))?.result ?? null;
      if (hit !== null) return { shown: hit.length, piece: hit, done: true };
    }
    intervalSetting("svc.sync_timeout");
    const maxQueueSize = sessionQueueBound();
    const noWorker = noLiveWorker(FN2, modelOf(job));
    if (noWorker) throw noWorker;
    const waiter = holdWaiterLock();
    const session = openSession(FN2, ctx);
    const [id] = submitRemote(session, ctx, waiter, job.functionName, [{ ...job.parameters, stream: true }], maxQueueSize);
    submitted.set(id, { session, waiter, model: modelOf(job) });
    return { id, shown: 0, piece: null, done: false };
  }
  function streamNext(state) {
    const id = state.id;
    try {
      const next = waitForText(state, id);
      if (next.done) submitted.delete(id);
      return next;
    } catch (error) {
      submitted.delete(id);
      throw error;
    }
  }
  function waitForText(state, id) {
    const timeout = intervalSetting("svc.sync_timeout");
    const deadline = Date.now() + timeout * 1e3;
    let pause = 5e-4;
    for (; ; ) {
      const row = one(QUERIES.streamState, id);
      if (row?.status === "completed") {
        const result = row.result ?? "";
        return { ...state, shown: result.length, piece: result.slice(state.shown), done: true };
      }
      if (row?.status === "processing" && row.partial !== null && row.partial.length > state.shown) {
        return { ...state, shown: row.partial.length, piece: row.partial.slice(state.shown) };
      }
      const left = deadline - Date.now();
      if (row === void 0 || row.status === "failed" || row.status === "cancelled" || left <= 0) {
        const error = stateError(
          FN2,
          id,
          row && { status: row.status, result: row.result, error: row.error },
          () => new SvcError(SQLSTATE.svc_timed_out, `${FN2}: timed out: no new text within ${timeout} s (svc.sync_timeout); ${workersSummary(submitted.get(id)?.model ?? "default", true).text}`, {
            detail: `request ${id} was ${row?.status}; it is cancelled (a worker running it stops)`,
            hint: "Start a worker (svc-worker), or raise svc.sync_timeout."
          })
        );
        const via = submitted.get(id);
        if (error?.sqlerrcode === SQLSTATE.svc_timed_out && via) cancelRemoteQuietly(via.session, via.waiter, [id]);
        throw error;
      }
      one(QUERIES.sleep, Math.min(pause, left / 1e3));
      pause = Math.min(pause * 1.15, 0.02);
    }
  }

  // src/extension/facts.ts
  var EXTRACT = "svc_extract_facts";
  var DEDUPLICATE = "svc_deduplicate_facts";
  var FACTS_LIMITS = { maxFacts: 100, factMaxChars: 300, deduplicateMaxItems: 1e3 };
  var factsPrompt = (text3, maxFacts) => `Extract at most ${maxFacts} short facts stated in the text below, each a self-contained sentence, as a JSON array of strings.

Text:
${text3}

Facts:`;
  var factsSchema = (maxFacts) => ({
    type: "array",
    items: { type: "string", minLength: 1, maxLength: FACTS_LIMITS.factMaxChars },
    maxItems: maxFacts
  });
  function factsOf(answer) {
    const parsed = JSON.parse(answer);
    if (!Array.isArray(parsed) || !parsed.every((f) => typeof f === "string")) throw new Error(`not a JSON array of strings: ${answer.slice(0, 80)}`);
    return [...new Set(parsed.map((f) => f.trim()).filter((f) => f !== ""))];
  }
  function extractFacts(textInput, maxFacts, ...g) {
    const text3 = text(EXTRACT, "text_input", textInput);
    const n = integerInRange(EXTRACT, "max_facts", maxFacts, 1, FACTS_LIMITS.maxFacts);
    const job = prepareJson(EXTRACT, factsPrompt(text3, n), new SchemaText(JSON.stringify(factsSchema(n))), generationArgs(g));
    return factsOf(runOne(EXTRACT, job));
  }
  var similarity = (a, b) => a.reduce((sum, x, i) => sum + x * b[i], 0);
  function deduplicateFacts(facts, threshold, useCache) {
    const list = array(DEDUPLICATE, "facts", facts, { maxItems: FACTS_LIMITS.deduplicateMaxItems, allowEmpty: true }).map((f, i) => textItem(DEDUPLICATE, itemName("facts", i), f));
    if (threshold === null || threshold === void 0) throw parameterError(DEDUPLICATE, "threshold", "must not be NULL", {}, SQLSTATE.null_value_not_allowed);
    if (typeof threshold !== "number" || !(threshold >= 0 && threshold <= 1)) throw parameterError(DEDUPLICATE, "threshold", `must be a cosine similarity from 0 to 1 (got ${String(threshold)})`);
    const cache = boolean(DEDUPLICATE, "use_cache", useCache);
    if (list.length < 2) return list;
    const outcomes = runMany(DEDUPLICATE, list.map((fact) => prepareEmbed(DEDUPLICATE, fact, cache)));
    const failed = outcomes.findIndex((o) => o.error !== null);
    if (failed >= 0) throw new SvcError(outcomes[failed].error.sqlerrcode, `${outcomes[failed].error.message} (facts[${failed + 1}])`);
    const vectors = outcomes.map((o) => JSON.parse(o.result));
    const kept = [];
    for (let i = 0; i < list.length; i++) if (kept.every((k) => similarity(vectors[k], vectors[i]) < threshold)) kept.push(i);
    return kept.map((i) => list[i]);
  }

  // src/extension/index.ts
  var api = {
    generate,
    embed,
    generateJson,
    generateJsonText,
    generateRegex,
    generateChoice,
    rerank,
    generateMany,
    embedMany,
    generateJsonMany,
    generateJsonManyText,
    generateRegexMany,
    generateChoiceMany,
    rerankMany,
    rerankDocsOnly,
    rerankBatch,
    syncSubmit,
    setSyncConnection,
    generateAsync,
    embedAsync,
    generateJsonAsync,
    generateJsonAsyncText,
    generateRegexAsync,
    generateChoiceAsync,
    generateBatchAsync,
    embedBatchAsync,
    rerankAsync,
    rerankBatchAsync,
    getAsyncResult,
    getAsyncResults,
    cancelAsync,
    setRoleLimits,
    setQueueLimits,
    queueLimits,
    roleQuotaCheck,
    vectorize,
    vectorizeDrop,
    search,
    vectorizerEmbed,
    promptCreate,
    promptUpdate,
    promptRender,
    summarizeStep,
    summarizeCombine,
    summarizeFinal,
    summarizeStepOptions,
    summarizePartialStep,
    summarizePartial,
    summarizeMerge,
    streamStart,
    streamNext,
    extractFacts,
    deduplicateFacts
  };
  return __toCommonJS(index_exports);
})();

globalThis.__svc = { build: "<build id>", api: __svc_exports.api };
return globalThis.__svc;
