// Where a prompt becomes the tokens fed to the model, in one of two formats:
//
// - 'chat': the prompt is the user turn of the model's own chat template (the GGUF's
//   `tokenizer.chat_template`), after an optional system turn, ending where the assistant's answer
//   begins. The template is rendered by node-llama-cpp's JinjaTemplateChatWrapper exactly as the
//   GGUF writes it (no built-in wrapper substituted); the template's own text is tokenized with
//   special tokens (`<|im_start|>` becomes the control token), the prompt and system prompt as plain
//   text (a prompt that spells `<|im_end|>` gets ordinary tokens, never a control token). A model
//   without a template runs raw, and the system prompt is not used.
// - 'raw': the prompt as is, tokenized as node-llama-cpp's LlamaCompletion does (BOS first where the
//   vocabulary asks for one, then the text).
//
// Deterministic: the same model, prompt and options give the same tokens.
import {
  JinjaTemplateChatWrapper,
  LlamaVocabularyType,
  type ChatHistoryItem,
  type LlamaModel,
  type Token,
} from 'node-llama-cpp';

export type { PromptFormat } from './outcomes.js';
import type { PromptFormat } from './outcomes.js';
export const PROMPT_FORMATS: readonly PromptFormat[] = ['chat', 'raw'];

export interface PromptOptions {
  /** 'chat': the user turn of the model's chat template (raw when the model has none); 'raw': the prompt as is. */
  promptFormat?: PromptFormat;
  /** The system turn of the chat template (chat format on a model with a template only); empty or absent: none. */
  systemPrompt?: string | null;
}

export interface PromptTokens {
  tokens: Token[];
  /** The format used: 'raw' for a raw request, and for a chat request on a model without a template. */
  format: PromptFormat;
}

export { ChatTemplateError } from './outcomes.js';
import { ChatTemplateError } from './outcomes.js';

/** The GGUF's `tokenizer.chat_template`, or undefined when it has none (or an empty one). */
export function chatTemplateOf(model: LlamaModel): string | undefined {
  const template = (model.fileInfo.metadata as { tokenizer?: { chat_template?: unknown } }).tokenizer?.chat_template;
  return typeof template === 'string' && template.trim() !== '' ? template : undefined;
}

export function isPromptFormat(value: unknown): value is PromptFormat {
  return value === 'chat' || value === 'raw';
}

/** Turns prompts into tokens for one model; holds the model's template wrapper, built on first use. */
export class Prompter {
  /** The GGUF's chat template, if any. */
  readonly chatTemplate: string | undefined;
  private wrapper?: JinjaTemplateChatWrapper;

  constructor(private readonly model: LlamaModel) {
    this.chatTemplate = chatTemplateOf(model);
  }

  get hasChatTemplate(): boolean {
    return this.chatTemplate !== undefined;
  }

  /** The format a request of `requested` format runs in on this model. */
  formatFor(requested: PromptFormat | undefined): PromptFormat {
    return requested === 'chat' && this.hasChatTemplate ? 'chat' : 'raw';
  }

  tokens(prompt: string, options: PromptOptions = {}): PromptTokens {
    if (options.promptFormat !== undefined && !isPromptFormat(options.promptFormat)) {
      throw new RangeError(`promptFormat must be 'chat' or 'raw', got ${JSON.stringify(options.promptFormat)}`);
    }
    const format = this.formatFor(options.promptFormat);
    return { format, tokens: format === 'chat' ? this.chat(prompt, options.systemPrompt) : this.raw(prompt) };
  }

  /** The token LlamaCompletion puts before a raw prompt (BOS where the vocabulary asks for it), or null. */
  get beginningToken(): Token | null {
    return beginningToken(this.model);
  }

  /** The prompt as is: as LlamaCompletion tokenizes it (BOS first where the vocabulary prepends one). */
  raw(prompt: string): Token[] {
    const bos = beginningToken(this.model);
    const text = this.model.tokenizer(prompt, false, bos !== null ? 'trimLeadingSpace' : undefined);
    return bos !== null ? [bos, ...text] : text;
  }

  /** The prompt as the user turn of the chat template, after the system turn when one is given. */
  chat(prompt: string, systemPrompt?: string | null): Token[] {
    const wrapper = this.chatWrapper();
    const chatHistory: ChatHistoryItem[] = [];
    if (systemPrompt) chatHistory.push({ type: 'system', text: systemPrompt });
    chatHistory.push({ type: 'user', text: prompt }, { type: 'model', response: [] });
    let state: ReturnType<JinjaTemplateChatWrapper['generateContextState']>;
    try {
      state = wrapper.generateContextState({ chatHistory });
    } catch (error) {
      throw new ChatTemplateError(`the model's chat template cannot be applied: ${(error as Error).message}`, {
        cause: error,
      });
    }
    return state.contextText.tokenize(this.model.tokenizer);
  }

  private chatWrapper(): JinjaTemplateChatWrapper {
    if (this.chatTemplate === undefined)
      throw new ChatTemplateError('the model has no chat template (tokenizer.chat_template)');
    if (!this.wrapper) {
      try {
        this.wrapper = new JinjaTemplateChatWrapper({
          template: this.chatTemplate,
          tokenizer: this.model.tokenizer,
          // The template's own default for thinking (enable_thinking is not passed).
          reasoning: null,
        });
      } catch (error) {
        throw new ChatTemplateError(`the model's chat template cannot be rendered: ${(error as Error).message}`, {
          cause: error,
        });
      }
    }
    return this.wrapper;
  }
}

/** The token LlamaCompletion puts before a prompt (node-llama-cpp's resolveBeginningTokenToPrepend). */
function beginningToken(model: LlamaModel): Token | null {
  switch (model.vocabularyType) {
    case LlamaVocabularyType.rwkv:
    case LlamaVocabularyType.ugm:
      return null;
    case LlamaVocabularyType.wpm:
      return model.tokens.bos;
    default:
      return model.tokens.shouldPrependBosToken ? model.tokens.bos : null;
  }
}
